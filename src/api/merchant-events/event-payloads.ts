/**
 * The document's `webhooks`: what the engine POSTs to a merchant's endpoint for each event type (MERCHANT_EVENT_TYPES),
 * an event whose `data` is the operation as it stood then (src/merchant-events/event-payloads.ts, one schema per object).
 * test/unit/event-payload-docs.test.ts holds real events to these shapes.
 */
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { merchantEventPayloadSchemas } from '../../merchant-events/event-payloads';
import {
  MERCHANT_EVENT_TYPES,
  merchantEventIdSchema,
  type MerchantEventType,
} from '../../merchant-events/merchant-event';
import {
  STANDARD_WEBHOOK_ID_HEADER,
  STANDARD_WEBHOOK_SIGNATURE_HEADER,
  STANDARD_WEBHOOK_TIMESTAMP_HEADER,
} from '../../merchant-events/standard-webhook-signature';
import { timestampSchema } from '../openapi-timestamps';

/** The event as delivered for `type`. */
export function eventPayloadSchema(type: MerchantEventType) {
  return z.object({
    id: merchantEventIdSchema.describe('The same on every attempt of its delivery: de-duplicate by it'),
    type: z.literal(type),
    createdAt: timestampSchema.describe('When the operation reached the state the event announces'),
    data: merchantEventPayloadSchemas[type],
  });
}

const deliveryHeaders = z.object({
  [STANDARD_WEBHOOK_ID_HEADER]: z.string().describe("The event's id"),
  [STANDARD_WEBHOOK_TIMESTAMP_HEADER]: z.string().regex(/^\d+$/).describe('Unix seconds of this attempt'),
  [STANDARD_WEBHOOK_SIGNATURE_HEADER]: z
    .string()
    .describe(
      'v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<raw body>")>, space-separated, one per active secret (Standard Webhooks)',
    ),
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
          responses: {
            200: { description: 'Received: any 2xx will do' },
            400: { description: 'Refused (a bad signature, say): the event is retried' },
          },
        },
      },
    ]),
  );
}
