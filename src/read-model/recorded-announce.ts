/**
 * Every announced event is kept in the read model, whether or not an endpoint subscribes to its type, so
 * that an operation's events can be listed from the engine's own database after Temporal forgets them.
 * Recorded first: the delivery that follows is idempotent by the same id, and so is the record.
 */
import type { Announce } from '../merchant-events/announce';
import { merchantEventId } from '../merchant-events/event-id';
import type { ReadModel } from './read-model';

export function recordedAnnounce(readModel: Pick<ReadModel, 'recordEvent'>, announce: Announce): Announce {
  return async (announcement) => {
    await readModel.recordEvent(
      merchantEventId(announcement.sourceId, announcement.type, announcement.seq),
      announcement,
    );
    return announce(announcement);
  };
}
