/**
 * What a lifecycle announces to merchants when it moves: the operation, the move and its data. The
 * merchant event client (src/lifecycles/merchant-event-client.ts, eventAnnouncer) turns it into an event
 * and starts its delivery. Pure: workflows build announcements too.
 */
import type { MerchantEventType } from './merchant-event';

export interface Announcement {
  /** The workflow id of the operation the event is about. */
  sourceId: string;
  /** The move's index in the operation's history (0 when it has one final move). */
  seq: number;
  type: MerchantEventType;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** `eventId` and the endpoints it is delivered to, when some endpoint subscribes to its type. */
export type Announce = (announcement: Announcement) => Promise<{ eventId?: string; endpointIds?: string[] }>;
