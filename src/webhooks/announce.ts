/**
 * Announcing a merchant event: when an endpoint subscribes to its type, the event's delivery workflow
 * is started (once: its id is derived from what it announces); when none does, nothing is kept. Used
 * by the announcing local activity of the lifecycles and by activities that end an operation.
 */
import type { Client } from '@temporalio/client';
import type { DeliveryTiming } from '../../workflows/merchant-event/messages';
import type { WebhookEndpointStore } from './endpoint-store';
import { merchantEventId } from './event-id';
import type { MerchantEvent, MerchantEventType } from './merchant-event';
import { startEventDelivery } from '../lifecycles/merchant-event-client';

export interface Announcement {
  /** The workflow id of the operation the event is about. */
  sourceId: string;
  /** The move's index in the operation's history (0 when it has one final move). */
  seq: number;
  type: MerchantEventType;
  occurredAt: string;
  data: Record<string, unknown>;
}

export type Announce = (announcement: Announcement) => Promise<{ eventId?: string }>;

export interface AnnouncerDependencies {
  endpoints: Pick<WebhookEndpointStore, 'subscribedTo'>;
  temporal: Client;
  taskQueue: string;
  timing: DeliveryTiming;
}

export function eventAnnouncer({ endpoints, temporal, taskQueue, timing }: AnnouncerDependencies): Announce {
  return async (announcement) => {
    const subscribed = await endpoints.subscribedTo(announcement.type);
    if (subscribed.length === 0) return {};
    const event: MerchantEvent = {
      id: merchantEventId(announcement.sourceId, announcement.type, announcement.seq),
      type: announcement.type,
      createdAt: announcement.occurredAt,
      data: announcement.data,
    };
    await startEventDelivery(temporal, { event, endpointIds: subscribed.map((endpoint) => endpoint.id), timing }, taskQueue);
    return { eventId: event.id };
  };
}
