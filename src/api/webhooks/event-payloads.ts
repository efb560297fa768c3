/**
 * The document's `webhooks`: what the engine POSTs to a merchant's endpoint for each event type (MERCHANT_EVENT_TYPES),
 * an event whose `data` is the operation as it stood then: the shapes built by each lifecycle's merchant-events.ts
 * (workflows/<flow>/merchant-events.ts, src/batches/batch-event.ts), by the object the type's prefix names.
 * test/unit/event-payload-docs.test.ts holds real events to these shapes.
 */
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { MERCHANT_EVENT_TYPES, merchantEventIdSchema, type MerchantEventType } from '../../webhooks/merchant-event';
import { STANDARD_WEBHOOK_ID_HEADER, STANDARD_WEBHOOK_SIGNATURE_HEADER, STANDARD_WEBHOOK_TIMESTAMP_HEADER } from '../../webhooks/standard-webhook-signature';
import { timestampSchema } from '../openapi-timestamps';

const reais = z.number().describe('Reais, at most 2 decimal places');

const payoutData = z.looseObject({
  object: z.literal('payout'),
  externalId: z.string(),
  method: z.string().describe('pix_key, pix_copy_paste, internal or crypto'),
  status: z.string().describe('The state the event announces'),
  amount: reais,
  fee: reais.optional(),
  total: reais.optional(),
  providerTransactionId: z.string().optional(),
  failureReason: z.string().optional(),
  batchId: z.string().optional().describe('The batch the payout is an item of'),
}).meta({ id: 'PayoutEventData' });

const batchData = z.looseObject({
  object: z.literal('payout_batch'),
  batchId: z.string(),
  status: z.enum(['DONE', 'CANCELLED']),
  total: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  needsReview: z.number().int(),
  totalAmount: reais,
  paidAmount: reais,
}).meta({ id: 'PayoutBatchEventData' });

const chargeData = z.looseObject({
  object: z.literal('charge'),
  externalId: z.string(),
  status: z.string().describe('The state the event announces'),
  amount: reais,
  fee: reais.optional(),
  netAmount: reais.optional(),
  paidAt: timestampSchema.optional(),
  providerTransactionId: z.string().optional(),
  failureReason: z.string().optional(),
  refundedAmount: reais.optional(),
}).meta({ id: 'ChargeEventData' });

const cardPaymentData = z.looseObject({
  object: z.literal('card_payment'),
  externalId: z.string(),
  status: z.string().describe('The state the event announces'),
  amount: reais,
  installmentCount: z.number().int(),
  brand: z.string().optional(),
  last4: z.string().optional(),
  netValue: reais.optional(),
  providerPaymentId: z.string().optional(),
  failureReason: z.string().optional(),
}).meta({ id: 'CardPaymentEventData' });

const infractionData = z.looseObject({
  object: z.literal('infraction'),
  infractionId: z.string(),
  status: z.string().describe('The state the event announces'),
  amount: reais.optional(),
  providerTransactionId: z.string().optional(),
  chargeExternalId: z.string().optional(),
  defense: z.string().optional().describe('The defense sent: ACEITA or NEGADA'),
}).meta({ id: 'InfractionEventData' });

/** The data of an event type, by the object its prefix names. */
const DATA_BY_PREFIX: Record<string, z.ZodType> = { payout: payoutData, payout_batch: batchData, charge: chargeData, card_payment: cardPaymentData, infraction: infractionData };

export function eventDataSchema(type: MerchantEventType): z.ZodType {
  const prefix = type.slice(0, type.lastIndexOf('.'));
  const schema = DATA_BY_PREFIX[prefix];
  if (!schema) throw new Error(`${type}: no data schema for events of ${prefix} (src/api/webhooks/event-payloads.ts)`);
  return schema;
}

/** The event as delivered for `type`. */
export function eventPayloadSchema(type: MerchantEventType) {
  return z.object({
    id: merchantEventIdSchema.describe('The same on every attempt of its delivery: de-duplicate by it'),
    type: z.literal(type),
    createdAt: timestampSchema.describe('When the operation reached the state the event announces'),
    data: eventDataSchema(type),
  });
}

const deliveryHeaders = z.object({
  [STANDARD_WEBHOOK_ID_HEADER]: z.string().describe("The event's id"),
  [STANDARD_WEBHOOK_TIMESTAMP_HEADER]: z.string().regex(/^\d+$/).describe('Unix seconds of this attempt'),
  [STANDARD_WEBHOOK_SIGNATURE_HEADER]: z.string().describe('v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<raw body>")>, space-separated, one per active secret (Standard Webhooks)'),
});

export function merchantEventWebhooks(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    MERCHANT_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `${type.replace(/[._](\w)/g, (_match: string, letter: string) => letter.toUpperCase())}Event`,
          tags: ['Merchant events'],
          summary: `The ${type} event`,
          description: `Sent to every endpoint registered for ${type}, signed as Standard Webhooks. Any 2xx acknowledges it; anything else, or no answer in time, is retried with backoff until the retry period ends (GET /v1/events/{eventId} shows each attempt).`,
          security: [],
          requestParams: { header: deliveryHeaders },
          requestBody: { required: true, content: { 'application/json': { schema: eventPayloadSchema(type) } } },
          responses: { 200: { description: 'Received: any 2xx will do' }, 400: { description: 'Refused (a bad signature, say): the event is retried' } },
        },
      },
    ]),
  );
}
