/** The answers of `/v1/webhook-endpoints` and `/v1/events`, one schema each. */
import { z } from 'zod';
import { timestampSchema } from '../openapi-timestamps';
import { webhookEndpointIdSchema, webhookEndpointSchema } from '../../merchant-events/endpoint-store';
import {
  merchantEventIdSchema,
  merchantEventSchema,
  merchantEventTypeSchema,
} from '../../merchant-events/merchant-event';
import { ENDPOINT_DELIVERY_STATES, EVENT_DELIVERY_STATES } from '../../lifecycles/merchant-event-client';
import { listPageQueryShape } from '../list-cursor';

export const endpointParamsSchema = z.object({ endpointId: webhookEndpointIdSchema });
/**
 * Any id-shaped string: one that is no event of this engine (another system's event id, say) is an unknown
 * event, 404, as an unknown payout is, not a malformed request.
 */
export const eventParamsSchema = z.object({
  eventId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an event id (letters, digits, _ and -)')
    .describe('evt_ and 24 hex digits for the events this engine announces'),
});
export const eventListQuerySchema = z.strictObject({
  type: merchantEventTypeSchema.optional(),
  cursor: listPageQueryShape.cursor,
  limit: listPageQueryShape.limit,
});

/** The store's endpoint as answered: its events as stored (the store's schema normalises them on the way in). */
export const endpointResponseSchema = webhookEndpointSchema
  .extend({
    events: z.array(merchantEventTypeSchema),
    createdAt: timestampSchema,
    secretRotatedAt: timestampSchema.optional(),
  })
  .meta({ id: 'WebhookEndpoint' });

/** Create and rotate: the only answers that carry the secret. */
export const endpointWithSecretSchema = endpointResponseSchema.extend({
  secret: z
    .string()
    .describe('whsec_ and base64: shown once; a Standard Webhooks library verifies webhook-signature with it'),
  previousSecretExpiresAt: timestampSchema.optional().describe('After a rotation: the old secret signs too until then'),
});

export const endpointListResponseSchema = z.object({ data: z.array(endpointResponseSchema) });

const attemptSchema = z.object({
  number: z.number().int(),
  at: timestampSchema,
  outcome: z.enum(['delivered', 'failed']),
  httpStatus: z.number().int().optional(),
  error: z.string().optional(),
  durationMs: z.number().int(),
});

export const eventResponseSchema = merchantEventSchema
  .extend({
    createdAt: timestampSchema,
    status: z.enum(EVENT_DELIVERY_STATES),
    deliveries: z.array(
      z.object({
        endpointId: z.string(),
        status: z.enum(ENDPOINT_DELIVERY_STATES),
        attempts: z.array(attemptSchema),
        nextAttemptAt: timestampSchema.optional(),
      }),
    ),
  })
  .meta({ id: 'MerchantEvent' });
export type EventResponse = z.infer<typeof eventResponseSchema>;

export const eventListResponseSchema = z.object({
  data: z.array(
    z.object({
      id: merchantEventIdSchema,
      type: merchantEventTypeSchema,
      createdAt: timestampSchema,
      status: z.enum(EVENT_DELIVERY_STATES),
      /** Delivery attempts so far, over all endpoints. */
      attempts: z.number().int(),
    }),
  ),
  nextCursor: z.string().optional(),
});
export type EventListResponse = z.infer<typeof eventListResponseSchema>;
