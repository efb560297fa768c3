/**
 * The engine API's OpenAPI document, assembled from each lifecycle's operations (src/api/<flow>/*-openapi.ts)
 * in the order the document lists them.
 */
import { batchOperations } from './batches/openapi';
import {
  callbackOperations,
  callbackReceivers,
  DEFAULT_CALLBACK_DOCUMENT,
  type CallbackDocumentSettings,
} from './callbacks/openapi';
import { cardPaymentOperations } from './card-payments/openapi';
import { chargeOperations } from './charges/openapi';
import { infractionOperations } from './infractions/openapi';
import { API_KEY_SCHEME, errors, KEYED } from './openapi-helpers';
import { payoutOperations } from './payouts/openapi';
import { webhookOperations } from './merchant-events/openapi';
import { openApiDocument, type OperationSpec } from '../openapi/document';
import { ENGINE_TAGS, lifecycleTag } from './openapi-tags';
import { withResponseHeaders } from './openapi-headers';
import { merchantEventWebhooks } from './merchant-events/event-payloads';
import { API_KEY_SCOPES, SCOPE_MEANINGS } from '../config/api-keys';

/** The routes reached without an API key that are limited per client address (src/api/rate-limit.ts; /readyz, src/api/health-routes.ts). */
const ADDRESS_LIMITED = ['/callbacks/', '/checkout/', '/codec/', '/readyz'];
const limitedByAddress = (op: OperationSpec): OperationSpec =>
  ADDRESS_LIMITED.some((prefix) => op.path.startsWith(prefix))
    ? { ...op, responses: { ...op.responses, ...errors({ 429: KEYED[429] ?? '' }) } }
    : op;
const rateLimited = (op: OperationSpec): boolean =>
  op.path.startsWith('/v1/') || ADDRESS_LIMITED.some((prefix) => op.path.startsWith(prefix));

const API_KEY_DESCRIPTION =
  'An engine API key (ENGINE_API_KEYS or ENGINE_API_KEYS_FILE) with the scope each operation names in its security requirement; ' +
  `without it, 403 INSUFFICIENT_SCOPE naming the scope. The scopes: ${API_KEY_SCOPES.map((scope) => `${scope} (${SCOPE_MEANINGS[scope]})`).join('; ')}.`;

/** Every operation of the engine API, in the order the document lists them; the API checks the scopes they name (auth.ts). */
export function engineOperations(callbacks: CallbackDocumentSettings = DEFAULT_CALLBACK_DOCUMENT): OperationSpec[] {
  const receivers = callbackReceivers(callbacks);
  return (
    [
      ...payoutOperations,
      ...batchOperations,
      ...callbackOperations,
      ...infractionOperations,
      ...chargeOperations,
      ...receivers.cashIn,
      ...receivers.payouts,
      ...cardPaymentOperations(),
      ...receivers.card,
      ...webhookOperations(),
      {
        id: 'getHealth',
        description: 'Liveness: the process answers. Not rate limited.',
        method: 'get',
        path: '/healthz',
        summary: 'The process answers',
        responses: { 200: { description: 'Up' } },
      },
      {
        id: 'getReadiness',
        description:
          'Readiness: Temporal and the payment API answer, a worker polls the task queue (it polls once warmed up), and the API has built what its first request would; each check is reported as ready or not (the reason goes to the log). Kept for a few seconds, limited per client address.',
        method: 'get',
        path: '/readyz',
        summary: 'Temporal, the payment API and a warm worker answer',
        responses: { 200: { description: 'Ready' }, 503: { description: 'Not ready' } },
      },
    ] satisfies OperationSpec[]
  )
    .map(limitedByAddress)
    .map((op) => ({
      ...op,
      tags: [lifecycleTag(op.path)],
      responses: withResponseHeaders(op.responses, rateLimited(op)),
    }));
}

/** GET /openapi.json of the engine API; its callbacks as the running settings read them. */
export function engineOpenApi(callbacks: CallbackDocumentSettings = DEFAULT_CALLBACK_DOCUMENT) {
  return openApiDocument({
    info: {
      title: 'Payout engine API',
      version: '1.0.0',
      description:
        'Payouts, batches, PIX charges, card payments and MED infractions as durable Temporal workflows; their final states pushed to the merchant as signed events.',
      license: { name: 'Proprietary (UNLICENSED)' },
    },
    servers: [
      {
        url: 'http://127.0.0.1:3000',
        description: 'The engine as npm start runs it (ENGINE_PORT); in production, your ENGINE_PUBLIC_URL',
      },
    ],
    securitySchemes: { [API_KEY_SCHEME]: { type: 'http', scheme: 'bearer', description: API_KEY_DESCRIPTION } },
    tags: ENGINE_TAGS,
    operations: engineOperations(callbacks),
    webhooks: merchantEventWebhooks(),
  });
}
