/**
 * The `data` of each merchant event type, one schema per kind of operation (`data.object`), as the workflows
 * build it (workflows/<flows>/merchant-events.ts, src/batches/batch-event.ts): what a merchant's receiver reads,
 * and what the OpenAPI document's webhooks show. Amounts in reais; a field is absent when it was not known.
 */
import { z } from 'zod';
import type { MerchantEventType } from './merchant-event';

const reais = z.number().describe('reais');
const isoTime = z.string().meta({ format: 'date-time', description: 'RFC 3339, UTC' });

/** An event's `data`: the kind of operation it is about (`object`), then what it states of that operation. */
function eventDataSchema<const O extends string, S extends z.ZodRawShape>(object: O, id: string, shape: S) {
  return z.strictObject({ object: z.literal(object), ...shape }).meta({ id });
}

export const payoutEventDataSchema = eventDataSchema('payout', 'PayoutEventData', {
  externalId: z.string(),
  method: z.string(),
  status: z.enum(['COMPLETED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW']),
  amount: reais,
  fee: reais
    .optional()
    .describe('What the provider charged: 0 on a FAILED payout (the provider refunds amount and fee)'),
  total: reais.optional().describe('amount + fee taken from the balance: 0 on a FAILED payout'),
  providerTransactionId: z.string().optional(),
  endToEndId: z.string().optional().describe('The PIX end-to-end id, when the provider gave one'),
  failureReason: z.string().optional(),
  reviewReason: z.string().optional().describe('payout.needs_review: why a person must look'),
  batchId: z.string().optional(),
});

export const payoutBatchEventDataSchema = eventDataSchema('payout_batch', 'PayoutBatchEventData', {
  batchId: z.string(),
  status: z.enum(['DONE', 'CANCELLED']),
  total: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  needsReview: z.number().int(),
  totalAmount: reais,
  paidAmount: reais,
});

export const chargeEventDataSchema = eventDataSchema('charge', 'ChargeEventData', {
  externalId: z.string(),
  status: z.enum(['PAID', 'EXPIRED', 'FAILED', 'PARTIALLY_REFUNDED', 'REFUNDED']),
  amount: reais,
  fee: reais.optional(),
  netAmount: reais.optional(),
  paidAt: isoTime.optional(),
  providerTransactionId: z.string().optional(),
  failureReason: z.string().optional(),
  refundedAmount: reais.optional(),
});

export const cardPaymentEventDataSchema = eventDataSchema('card_payment', 'CardPaymentEventData', {
  externalId: z.string(),
  status: z.enum(['PAID', 'FAILED', 'EXPIRED', 'NEEDS_REVIEW']),
  amount: reais,
  installmentCount: z.number().int(),
  brand: z.string().optional(),
  last4: z.string().optional(),
  netValue: reais.optional(),
  providerPaymentId: z.number().int().optional(),
  failureReason: z.string().optional(),
  reviewReason: z.string().optional().describe('card_payment.needs_review: why a person must look'),
});

export const infractionEventDataSchema = eventDataSchema('infraction', 'InfractionEventData', {
  infractionId: z.string(),
  status: z.enum(['OPEN', 'DUE_SOON', 'ACCEPTED', 'REJECTED', 'CANCELLED']),
  amount: reais.optional(),
  providerTransactionId: z.string().optional(),
  defenseDeadline: isoTime.optional().describe('When the defense is due at the provider'),
  chargeExternalId: z.string().optional(),
  defense: z.string().optional().describe("The defense sent: the provider's analise value"),
});

/** Each event type's `data`. */
export const merchantEventPayloadSchemas: Readonly<Record<MerchantEventType, z.ZodType>> = {
  'payout.completed': payoutEventDataSchema,
  'payout.failed': payoutEventDataSchema,
  'payout.cancelled': payoutEventDataSchema,
  'payout.needs_review': payoutEventDataSchema,
  'payout_batch.completed': payoutBatchEventDataSchema,
  'payout_batch.cancelled': payoutBatchEventDataSchema,
  'charge.paid': chargeEventDataSchema,
  'charge.expired': chargeEventDataSchema,
  'charge.failed': chargeEventDataSchema,
  'charge.partially_refunded': chargeEventDataSchema,
  'charge.refunded': chargeEventDataSchema,
  'card_payment.paid': cardPaymentEventDataSchema,
  'card_payment.failed': cardPaymentEventDataSchema,
  'card_payment.expired': cardPaymentEventDataSchema,
  'card_payment.needs_review': cardPaymentEventDataSchema,
  'infraction.opened': infractionEventDataSchema,
  'infraction.due_soon': infractionEventDataSchema,
  'infraction.accepted': infractionEventDataSchema,
  'infraction.rejected': infractionEventDataSchema,
  'infraction.cancelled': infractionEventDataSchema,
};
