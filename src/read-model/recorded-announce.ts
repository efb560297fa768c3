/**
 * Every announced event is kept in the read model, whether or not an endpoint subscribes to its type, so
 * that an operation's events can be listed from the engine's own database after Temporal forgets them.
 * Recorded first: the delivery that follows is idempotent by the same id, and so is the record. An event
 * handed to endpoints is listed at once as PENDING for each of them, unless its delivery is already recorded
 * (announced again after a reset: the delivery it started stands).
 */
import type { Announce } from '../merchant-events/announce';
import { merchantEventId } from '../merchant-events/event-id';
import type { ReadModel } from './read-model';

export function recordedAnnounce(
  readModel: Pick<ReadModel, 'recordEvent' | 'recordDelivery'>,
  announce: Announce,
): Announce {
  return async (announcement) => {
    const eventId = merchantEventId(announcement.sourceId, announcement.type, announcement.seq);
    await readModel.recordEvent(eventId, announcement);
    const announced = await announce(announcement);
    if (announced.endpointIds && announced.endpointIds.length > 0)
      await readModel.recordDelivery({
        eventId,
        state: 'PENDING',
        deliveries: announced.endpointIds.map((endpointId) => ({ endpointId, state: 'PENDING', attempts: [] })),
        at: announcement.occurredAt,
        first: true,
      });
    return announced;
  };
}
