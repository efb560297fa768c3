import { batchAcceptedSchema, batchItemsResponseSchema, batchSummarySchema } from '../batches/batch-api-schemas';
import { batchRequestBodySchema } from '../batches/batch-request';
import { apiErrorBodySchema } from './errors';
import { cancelPayoutBodySchema } from './payouts/payout-routes';
import { payoutRequestSchema } from './payouts/payout-request';
import { payoutAcceptedSchema, payoutResponseSchema } from './payouts/payout-response';
import { openApiDocument } from '../openapi/document';

const error = (description: string) => ({ description, schema: apiErrorBodySchema });

/** GET /openapi.json of the engine API. */
export function engineOpenApi() {
  return openApiDocument(
    { title: 'Payout engine API', version: '1.0.0', description: 'PIX payouts as durable Temporal workflows.' },
    { apiKey: { type: 'http', scheme: 'bearer', description: 'An engine API key (ENGINE_API_KEYS)' } },
    [
      {
        method: 'post', path: '/v1/payouts', summary: 'Submit a PIX payout (idempotent by externalId)', security: 'apiKey', body: payoutRequestSchema,
        responses: { 202: { description: 'Accepted, or the existing payout for a repeated identical request', schema: payoutAcceptedSchema }, 400: error('Invalid request'), 401: error('Missing or invalid API key'), 409: error('A different payout has this externalId'), 503: error('Temporal unavailable') },
      },
      {
        method: 'get', path: '/v1/payouts/:externalId', summary: 'The payout, its amounts and its transition history', security: 'apiKey',
        responses: { 200: { description: 'The payout', schema: payoutResponseSchema }, 404: error('Unknown payout') },
      },
      {
        method: 'post', path: '/v1/payouts/:externalId/recheck', summary: 'Ask the provider again (operators)', security: 'apiKey',
        responses: { 200: { description: 'The payout after the check', schema: payoutResponseSchema }, 404: error('Unknown payout') },
      },
      {
        method: 'post', path: '/v1/payouts/:externalId/cancel', summary: 'Cancel a payout not yet at the provider (operators)', security: 'apiKey', body: cancelPayoutBodySchema,
        responses: { 200: { description: 'Cancelled', schema: payoutResponseSchema }, 404: error('Unknown payout'), 409: error('Already submitted or final') },
      },
      {
        method: 'post', path: '/v1/payout-batches', summary: 'Submit a batch of payouts as JSON, or as text/csv with a header row (?batchId= then)', security: 'apiKey', body: batchRequestBodySchema,
        responses: { 202: { description: 'Accepted, or the existing batch for a repeated identical request', schema: batchAcceptedSchema }, 400: error('Unreadable body or CSV header'), 401: error('Missing or invalid API key'), 409: error('A different batch has this batchId'), 415: error('Neither JSON nor CSV'), 422: error('Bad rows, each named in rows[]; nothing started') },
      },
      {
        method: 'get', path: '/v1/payout-batches/:batchId', summary: 'Totals by state (count and amount), done flag, start and end times', security: 'apiKey',
        responses: { 200: { description: 'The batch', schema: batchSummarySchema }, 404: error('Unknown batch') },
      },
      {
        method: 'get', path: '/v1/payout-batches/:batchId/items', summary: 'The items with their states, paged (?status=&cursor=&limit=)', security: 'apiKey',
        responses: { 200: { description: 'A page of items', schema: batchItemsResponseSchema }, 400: error('Bad query'), 404: error('Unknown batch') },
      },
      ...(['cancel', 'pause', 'resume'] as const).map((action) => ({
        method: 'post' as const, path: `/v1/payout-batches/:batchId/${action}`, summary: `${action[0]?.toUpperCase()}${action.slice(1)} the batch: items not yet started are affected, started ones go on`, security: 'apiKey' as const,
        responses: { 200: { description: 'The batch after the request', schema: batchSummarySchema }, 404: error('Unknown batch'), 409: error('Already finished or cancelled') },
      })),
      {
        method: 'get', path: '/v1/callbacks/unmatched', summary: 'Callbacks that named no known payout (operators)', security: 'apiKey',
        responses: { 200: { description: 'The most recent unmatched callbacks' } },
      },
      {
        method: 'post', path: '/callbacks/withdrawals', summary: "The provider's signed withdrawal callbacks",
        responses: { 200: { description: 'Signalled to the payout' }, 202: { description: 'Unknown payout: kept for operators' }, 401: error('Bad or stale signature'), 400: error('Invalid body'), 503: error('Temporal unavailable: retry') },
      },
      { method: 'get', path: '/healthz', summary: 'The process answers', responses: { 200: { description: 'Up' } } },
      { method: 'get', path: '/readyz', summary: 'Temporal and the payment API answer', responses: { 200: { description: 'Ready' }, 503: { description: 'Not ready' } } },
    ],
  );
}
