/**
 * Everything the outside world says to a merchant event's delivery workflow, defined once: the
 * activity that announces events, the engine API and the workflow import these.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { DeliveryTiming } from '../merchant-events/delivery-timing';
import type { MerchantEvent } from '../merchant-events/merchant-event';
import type { Transition, TransitionTable } from './lifecycle';

/**
 * Where a merchant event's delivery stands, over all the endpoints it goes to: PENDING while one of
 * them is still being tried, then DELIVERED (every endpoint answered 2xx), FAILED (one gave no 2xx for
 * the whole retry period) or CANCELLED (its endpoints were deleted). A redelivery asked by the merchant
 * makes it PENDING again.
 */
export const EVENT_DELIVERY_STATES = ['PENDING', 'DELIVERED', 'FAILED', 'CANCELLED'] as const;
export type EventDeliveryState = (typeof EVENT_DELIVERY_STATES)[number];

export const EVENT_DELIVERY_TRANSITIONS: TransitionTable<EventDeliveryState> = {
  PENDING: ['DELIVERED', 'FAILED', 'CANCELLED'],
  DELIVERED: ['PENDING'],
  FAILED: ['PENDING'],
  CANCELLED: ['PENDING'],
};

/** One endpoint's delivery: trying, answered 2xx, gave up, or its endpoint was deleted. */
export const ENDPOINT_DELIVERY_STATES = ['PENDING', 'DELIVERED', 'FAILED', 'ENDPOINT_DELETED'] as const;
export type EndpointDeliveryState = (typeof ENDPOINT_DELIVERY_STATES)[number];

export function isEventDeliveryState(value: unknown): value is EventDeliveryState {
  return typeof value === 'string' && (EVENT_DELIVERY_STATES as readonly string[]).includes(value);
}

/** One POST to one endpoint, as the receiver answered it (no body is kept). */
export interface DeliveryAttempt {
  number: number;
  at: string;
  /** `delivered`: a 2xx answer; `failed`: another status, no answer in time, or no connection. */
  outcome: 'delivered' | 'failed';
  httpStatus?: number;
  error?: string;
  durationMs: number;
}

export interface EndpointDelivery {
  endpointId: string;
  state: EndpointDeliveryState;
  attempts: DeliveryAttempt[];
  /** When the next attempt is due, while PENDING. */
  nextAttemptAt?: string;
}

/** Attempts made so far, over all endpoints. */
export function attemptsOf(deliveries: readonly EndpointDelivery[]): number {
  return deliveries.reduce((sum, delivery) => sum + delivery.attempts.length, 0);
}

export interface MerchantEventInput {
  event: MerchantEvent;
  /** The endpoints subscribed to the event's type when it happened. */
  endpointIds: string[];
  timing: DeliveryTiming;
  /** A redelivery of an event whose workflow had closed: the deliveries so far, attempts kept. */
  earlier?: EndpointDelivery[];
  /** Where its POSTs run (MERCHANT_WEBHOOK_TASK_QUEUE); absent in inputs started before deliveries had a queue of their own. */
  deliveryTaskQueue?: string;
}

export interface MerchantEventView {
  event: MerchantEvent;
  state: EventDeliveryState;
  deliveries: EndpointDelivery[];
  transitions: readonly Transition<EventDeliveryState>[];
}

export type MerchantEventWorkflow = (input: MerchantEventInput) => Promise<MerchantEventView>;

export const merchantEventQuery = defineQuery<MerchantEventView>('status');
/** The merchant's redelivery: every endpoint is tried again now, with a fresh retry period. */
export const redeliverEventUpdate = defineUpdate<MerchantEventView>('redeliver');

/** The search attribute `PayoutFlow` of a merchant event's delivery. */
export const MERCHANT_EVENT_FLOW = 'merchant-event';

export function merchantEventWorkflowId(eventId: string): string {
  return `event:${eventId}`;
}
