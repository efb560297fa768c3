/**
 * What the engine tells a merchant's endpoints: one event per final state of an operation, and one for each
 * state that has a deadline or needs a person (an infraction opened or due soon, a payout or card payment in
 * review). The event
 * is the payload every attempt of its delivery carries, byte for byte the same, so a receiver
 * de-duplicates by `id`. Pure: workflows build events too.
 */
import { z } from 'zod';

export const MERCHANT_EVENT_TYPES = [
  'payout.completed',
  'payout.failed',
  'payout.cancelled',
  'payout_batch.completed',
  'payout_batch.cancelled',
  'charge.paid',
  'charge.expired',
  'charge.failed',
  'charge.partially_refunded',
  'charge.refunded',
  'card_payment.paid',
  'card_payment.failed',
  'card_payment.expired',
  'infraction.accepted',
  'infraction.rejected',
  'infraction.cancelled',
  // Appended, not sorted in: endpoints store their subscriptions in this order.
  'payout.needs_review',
  'card_payment.needs_review',
  'infraction.opened',
  'infraction.due_soon',
] as const;

export const merchantEventTypeSchema = z.enum(MERCHANT_EVENT_TYPES);
export type MerchantEventType = z.infer<typeof merchantEventTypeSchema>;

/** `evt_` and 24 hex digits: derived from what the event is about, never random (see eventId). */
export const merchantEventIdSchema = z
  .string()
  .regex(/^evt_[0-9a-f]{24}$/, 'must be an event id (evt_ and 24 hex digits)');

export const merchantEventSchema = z.object({
  id: merchantEventIdSchema,
  type: merchantEventTypeSchema,
  /** When the operation reached the state the event announces (ISO 8601, UTC). */
  createdAt: z.string(),
  /** The operation as it stood then; amounts in reais as the API shows them. */
  data: z.record(z.string(), z.unknown()),
});
export type MerchantEvent = z.infer<typeof merchantEventSchema>;
