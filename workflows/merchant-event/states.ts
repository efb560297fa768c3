/**
 * Where a merchant event's delivery stands, over all the endpoints it goes to: PENDING while one of
 * them is still being tried, then DELIVERED (every endpoint answered 2xx), FAILED (one gave no 2xx for
 * the whole retry period) or CANCELLED (its endpoints were deleted). A redelivery asked by the merchant
 * makes it PENDING again.
 */
import type { TransitionTable } from '../shared/lifecycle';

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
