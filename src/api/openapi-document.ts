import { z } from 'zod';
import { batchAcceptedSchema, batchItemsQuerySchema, batchItemsResponseSchema, batchParamsSchema, batchSummarySchema } from './batches/batch-schemas';
import { MAX_BATCH_ITEMS } from '../batches/batch-request';
import { apiErrorBodySchema } from './errors';
import { unmatchedCallbacksResponseSchema } from './callbacks/unmatched-callbacks';
import { cancelPayoutBodySchema, payoutParamsSchema, payoutQuoteQuerySchema } from './payouts/payout-routes';
import { externalIdSchema } from '../payouts/ids';
import { payoutShapeSchema } from '../payouts/payout-request';
import { copyPastePreviewRequestSchema } from '../payouts/rails/pix-copy-paste/preview';
import { RAIL_PROVIDERS } from '../payouts/rails/providers';
import { copyPastePreviewResponseSchema, cryptoQuoteResponseSchema, payoutAcceptedSchema, payoutResponseSchema } from './payouts/payout-response';
import { defenseRequestSchema } from '../infractions/defense';
import { chargeShapeSchema } from '../charges/charge-request';
import { CASH_IN_CALLBACK_PATH } from '../charges/callback-path';
import { cashInCallbackSchema } from '../payment-api/schemas/cash-in';
import { chargeCreatedSchema, chargeListResponseSchema, chargeResponseSchema } from './charges/charge-response';
import { chargeListQuerySchema, chargeParamsSchema } from './charges/charge-routes';
import { infractionListResponseSchema, infractionResponseSchema } from './infractions/infraction-response';
import { infractionListQuerySchema, infractionParamsSchema } from './infractions/infraction-routes';
import { WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '../payment-api/webhook-signature';
import { cardPaymentOperations } from './card-payments/card-payment-openapi';
import { webhookOperations } from './webhooks/webhook-openapi';
import { openApiDocument, withRequestExamples, type LinkSpec, type OperationSpec, type ResponseSpec } from '../openapi/document';

type Errors = Record<number, string>;

function errors(descriptions: Errors): Record<number, ResponseSpec> {
  return Object.fromEntries(Object.entries(descriptions).map(([status, description]) => [status, { description, schema: apiErrorBodySchema }]));
}

/** What every operation behind an API key may answer besides its own statuses. */
const KEYED: Errors = { 401: 'Missing or invalid API key', 429: 'Too many requests: retry later' };
const JSON_BODY: Errors = { 400: 'Invalid request: every refused field is named in issues[]', 413: 'The body is too large', 415: 'The body is not JSON' };
const TEMPORAL: Errors = { 503: 'Temporal unavailable or did not answer in time: retry' };

/**
 * The batch body as the API reads it: every item a payout's fields. The route itself takes `items` as
 * any array and checks each item on its own, so that a bad batch is answered with every bad row
 * named (422 with rows[]), not with the first problem (400).
 */
const batchRequestDocument = z
  .object({ batchId: externalIdSchema.optional(), items: z.array(payoutShapeSchema).min(1).max(MAX_BATCH_ITEMS) })
  .strict();

/** The documentation's examples: the examples phase of `npm run fuzz` sends them, so reads find real payouts and batches. */
const examplePayout = { externalId: 'order-1001', amount: 25, pixKey: '52998224725', keyType: 'CPF' };
const exampleBatch = {
  batchId: 'march-sellers',
  items: [
    { externalId: 's-1', amount: 25, pixKey: '52998224725', keyType: 'CPF' },
    { externalId: 's-2', amount: 80.5, pixKey: 'ana@example.com', keyType: 'EMAIL', description: 'March' },
  ],
};
const payoutBody = withRequestExamples(payoutShapeSchema, [examplePayout]);
const payoutParams = z.object({ externalId: payoutParamsSchema.shape.externalId.meta({ examples: [examplePayout.externalId] }) });
const batchBody = withRequestExamples(batchRequestDocument, [exampleBatch]);
const exampleCharge = { externalId: 'invoice-2001', amount: 150, payer: { name: 'Ana Souza', document: '52998224725', email: 'ana@example.com' }, description: 'Invoice 2001' };
const chargeBody = withRequestExamples(chargeShapeSchema, [exampleCharge]);
const chargeParams = z.object({ externalId: chargeParamsSchema.shape.externalId.meta({ examples: [exampleCharge.externalId] }) });
const batchParams = z.object({ batchId: batchParamsSchema.shape.batchId.meta({ examples: [exampleBatch.batchId] }) });

const callbackHeaders = z.object({
  [WEBHOOK_TIMESTAMP_HEADER]: z.string().regex(/^\d{1,12}$/).describe('Unix seconds, inside the signature'),
  [WEBHOOK_SIGNATURE_HEADER]: z.string().describe('v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>, one per active secret'),
  [WEBHOOK_ID_HEADER]: z.string().optional().describe('Unique per event, identical on its retries'),
});

/** Links from an answer to the operations on the resource it names (`values` maps their parameters). */
function linksTo(operationIds: readonly string[], values: Record<string, string>): Record<string, LinkSpec> {
  return Object.fromEntries(operationIds.map((operationId) => [operationId, { operationId, parameters: values }]));
}

const BATCH_ACTIONS = ['cancel', 'pause', 'resume'] as const;
const batchActionId = (action: (typeof BATCH_ACTIONS)[number]): string => `${action}Batch`;

const keyed = (op: Omit<OperationSpec, 'security'>): OperationSpec => ({ ...op, security: [['apiKey']], responses: { ...op.responses, ...errors(KEYED) } });

/** The routes reached without an API key that are limited per client address (src/api/rate-limit.ts). */
const ADDRESS_LIMITED = ['/callbacks/', '/checkout/', '/codec/'];
const limitedByAddress = (op: OperationSpec): OperationSpec =>
  ADDRESS_LIMITED.some((prefix) => op.path.startsWith(prefix)) ? { ...op, responses: { ...op.responses, ...errors({ 429: KEYED[429] ?? '' }) } } : op;

const batchActions: OperationSpec[] = BATCH_ACTIONS.map((action) =>
  keyed({
    id: batchActionId(action),
    method: 'post',
    path: `/v1/payout-batches/:batchId/${action}`,
    summary: `${action[0]?.toUpperCase()}${action.slice(1)} the batch: items not yet started are affected, started ones go on`,
    params: batchParams,
    responses: {
      200: { description: 'The batch after the request', schema: batchSummarySchema },
      ...errors({ 400: 'Invalid batchId', 404: 'Unknown batch', 409: 'Already finished or cancelled', ...TEMPORAL }),
    },
  }),
);

/** GET /openapi.json of the engine API. */
export function engineOpenApi() {
  return openApiDocument(
    {
      title: 'Payout engine API',
      version: '1.0.0',
      description: 'Payouts, batches, PIX charges, card payments and MED infractions as durable Temporal workflows; their final states pushed to the merchant as signed events.',
      license: { name: 'Proprietary (UNLICENSED)' },
    },
    [{ url: 'http://127.0.0.1:3000', description: 'The engine as npm start runs it (ENGINE_PORT); in production, your ENGINE_PUBLIC_URL' }],
    { apiKey: { type: 'http', scheme: 'bearer', description: 'An engine API key (ENGINE_API_KEYS)' } },
    ([
      keyed({
        id: 'submitPayout', method: 'post', path: '/v1/payouts', summary: 'Submit a payout (idempotent by externalId) by `method`: pix_key (default), pix_copy_paste, internal or crypto', body: payoutBody,
        responses: {
          202: {
            description: 'Accepted, or the existing payout for a repeated identical request',
            schema: payoutAcceptedSchema,
            links: linksTo(['getPayout', 'recheckPayout', 'cancelPayout'], { externalId: '$response.body#/externalId' }),
          },
          ...errors({
            ...JSON_BODY,
            409: 'A different payout has this externalId, or it is an item of a batch',
            422: "Not payable as requested: a pixKey that does not fit its keyType, a BR Code that does not read (CRC, fields) or whose amount differs, a wallet not of its network, a crypto amount outside the provider's bounds",
            503: "Temporal unavailable or did not answer in time, or the provider's crypto fees could not be read: retry",
          }),
        },
      }),
      keyed({
        id: 'previewCopyPaste', method: 'post', path: '/v1/payouts/preview', summary: 'Read a PIX copy-and-paste code without paying it: payee, amount, txid and the fee', body: copyPastePreviewRequestSchema,
        responses: { 200: { description: 'What paying the code would do', schema: copyPastePreviewResponseSchema }, ...errors({ ...JSON_BODY, 422: 'A code that does not read, or a missing or different amount' }) },
      }),
      keyed({
        id: 'quoteCrypto', method: 'get', path: '/v1/payouts/quote', summary: "A crypto payout's fee and USDT at the provider's current fees, without paying", query: payoutQuoteQuerySchema,
        responses: { 200: { description: 'The quote', schema: cryptoQuoteResponseSchema }, ...errors({ 400: 'Bad query', 422: "Amount outside the provider's bounds", 503: 'The provider could not be asked' }) },
      }),
      keyed({
        id: 'getPayout', method: 'get', path: '/v1/payouts/:externalId', summary: 'The payout, its amounts and its transition history', params: payoutParams,
        responses: { 200: { description: 'The payout', schema: payoutResponseSchema }, ...errors({ 400: 'Invalid externalId', 404: 'Unknown payout', ...TEMPORAL }) },
      }),
      keyed({
        id: 'recheckPayout', method: 'post', path: '/v1/payouts/:externalId/recheck', summary: 'Ask the provider again; re-run a terminated payout (operators)', params: payoutParams,
        responses: {
          200: { description: 'The payout after the check (a terminated one: its re-run)', schema: payoutResponseSchema },
          ...errors({ 400: 'Invalid externalId', 404: 'Unknown payout', 409: 'Terminated before anything was sent: nothing to recheck', ...TEMPORAL }),
        },
      }),
      keyed({
        id: 'cancelPayout', method: 'post', path: '/v1/payouts/:externalId/cancel', summary: 'Cancel a payout not yet at the provider (operators)', params: payoutParams,
        body: cancelPayoutBodySchema, bodyOptional: true,
        responses: {
          200: { description: 'Cancelled', schema: payoutResponseSchema },
          ...errors({ ...JSON_BODY, 404: 'Unknown payout', 409: 'Already submitted or final', ...TEMPORAL }),
        },
      }),
      keyed({
        id: 'submitBatch', method: 'post', path: '/v1/payout-batches', body: batchBody,
        summary: 'Submit a batch of payouts',
        description: 'As JSON (each item a payout of any method), or as text/csv with a header row and the batch id in ?batchId=: externalId and amount, then the columns of the rails used (method, pixKey, keyType, emv, email, wallet, network, description); an empty cell is a field not given.',
        responses: {
          202: {
            description: 'Accepted, or the existing batch for a repeated identical request',
            schema: batchAcceptedSchema,
            links: linksTo(['getBatch', 'listBatchItems', ...BATCH_ACTIONS.map(batchActionId)], { batchId: '$response.body#/batchId' }),
          },
          ...errors({
            ...JSON_BODY,
            415: 'Neither JSON nor CSV',
            409: 'A different batch has this batchId',
            413: 'More than 100,000 items or CSV rows, or a body over 40 MB; nothing stored',
            422: 'No items (a CSV with only its header), or bad rows, each named in rows[] (a bad field, a pixKey that does not fit its keyType, an externalId repeated or already used); nothing started',
            503: 'Temporal unavailable or did not answer in time, or storing the batch was interrupted: send the same request again',
          }),
        },
      }),
      keyed({
        id: 'getBatch', method: 'get', path: '/v1/payout-batches/:batchId', summary: 'Totals by state (count and amount), done flag, start and end times', params: batchParams,
        responses: { 200: { description: 'The batch', schema: batchSummarySchema }, ...errors({ 400: 'Invalid batchId', 404: 'Unknown batch' }) },
      }),
      keyed({
        id: 'listBatchItems', method: 'get', path: '/v1/payout-batches/:batchId/items', summary: 'The items with their states, paged', params: batchParams, query: batchItemsQuerySchema,
        responses: { 200: { description: 'A page of items', schema: batchItemsResponseSchema }, ...errors({ 400: 'Invalid batchId or query', 404: 'Unknown batch' }) },
      }),
      ...batchActions,
      keyed({
        id: 'listUnmatchedCallbacks', method: 'get', path: '/v1/callbacks/unmatched', summary: 'Callbacks that named no known payout (operators)',
        responses: { 200: { description: 'The most recent unmatched callbacks', schema: unmatchedCallbacksResponseSchema } },
      }),
      keyed({
        id: 'listInfractions', method: 'get', path: '/v1/infractions', summary: 'MED infractions from visibility: what is due this week, what is open', query: infractionListQuerySchema,
        responses: { 200: { description: 'A page of infractions', schema: infractionListResponseSchema }, ...errors({ 400: 'Bad query', 422: 'A cursor this API did not give', ...TEMPORAL }) },
      }),
      keyed({
        id: 'syncInfractions', method: 'post', path: '/v1/infractions/sync', summary: 'Run the MED sync now (the Schedule med-sync runs it every MED_SYNC_INTERVAL_MS)',
        responses: { 202: { description: 'A run was triggered' }, ...errors(TEMPORAL) },
      }),
      keyed({
        id: 'getInfraction', method: 'get', path: '/v1/infractions/:infractionId', summary: 'An infraction: state, amount, transaction, charge link, deadline, defense, transitions', params: infractionParamsSchema,
        responses: { 200: { description: 'The infraction', schema: infractionResponseSchema }, ...errors({ 400: 'Invalid infractionId', 404: 'Not seen by a sync yet', ...TEMPORAL }) },
      }),
      keyed({
        id: 'defendInfraction', method: 'post', path: '/v1/infractions/:infractionId/defense', summary: 'Defend an infraction (analise ACEITA or NEGADA); answered once the provider took it', params: infractionParamsSchema, body: defenseRequestSchema,
        responses: {
          200: { description: 'DEFENSE_SUBMITTED', schema: infractionResponseSchema },
          ...errors({ ...JSON_BODY, 404: 'Unknown infraction', 409: 'No longer defendable, or a different defense was sent', 422: 'The provider refused the defense (its reason)', ...TEMPORAL }),
        },
      }),
      keyed({
        id: 'createCharge', method: 'post', path: '/v1/charges', summary: 'Create a PIX charge: the copy-and-paste code and its QR picture in the answer (idempotent by externalId)', body: chargeBody,
        responses: {
          201: { description: 'The charge, created now or by an earlier identical request', schema: chargeCreatedSchema, links: linksTo(['getCharge'], { externalId: '$response.body#/externalId' }) },
          ...errors({ ...JSON_BODY, 409: 'A different charge has this externalId (CHARGE_CONFLICT), or its workflow was terminated before it ended (CHARGE_UNFINISHED)', 422: "A payer document whose check digits do not match, or the provider refused the charge (its reason)", ...TEMPORAL }),
        },
      }),
      keyed({
        id: 'listCharges', method: 'get', path: '/v1/charges', summary: 'Charges from visibility, optionally by status', query: chargeListQuerySchema,
        responses: { 200: { description: 'A page of charges', schema: chargeListResponseSchema }, ...errors({ 400: 'Bad query', 422: 'A cursor this API did not give', ...TEMPORAL }) },
      }),
      keyed({
        id: 'getCharge', method: 'get', path: '/v1/charges/:externalId', summary: 'A charge: state, amounts, fee, net amount, payer name, paidAt, refunds, transitions', params: chargeParams,
        responses: { 200: { description: 'The charge', schema: chargeResponseSchema }, ...errors({ 400: 'Invalid externalId', 404: 'Unknown charge', ...TEMPORAL }) },
      }),
      {
        id: 'receiveCashInCallback', method: 'post', path: CASH_IN_CALLBACK_PATH, summary: "The provider's signed cash-in status callbacks (each charge's projectWebhook)", headers: callbackHeaders, body: cashInCallbackSchema,
        responses: {
          200: { description: 'Signalled to the charge' },
          202: { description: 'Unknown charge: kept for operators' },
          ...errors({ 400: 'Invalid body', 401: 'Bad or stale signature', 413: 'The body is too large', ...TEMPORAL }),
        },
      },
      ...Object.values(RAIL_PROVIDERS).flatMap((rail): OperationSpec[] =>
        rail.callback
          ? [{
              id: `receive${rail.callback.path.replace('/callbacks/', '').replace(/(^|[-_/])(\w)/g, (_match: string, _separator: string, letter: string) => letter.toUpperCase())}Callback`,
              method: 'post', path: rail.callback.path, summary: `The provider's signed final-status callbacks of ${rail.callback.path.replace('/callbacks/', '')} payouts`, headers: callbackHeaders, body: rail.callback.schema,
              responses: {
                200: { description: 'Signalled to the payout' },
                202: { description: 'Unknown payout: kept for operators' },
                ...errors({ 400: 'Invalid body', 401: 'Bad or stale signature', 413: 'The body is too large', ...TEMPORAL }),
              },
            }]
          : [],
      ),
      ...cardPaymentOperations({ errors, keyed, linksTo, callbackHeaders, jsonBody: JSON_BODY, temporal: TEMPORAL }),
      ...webhookOperations({ errors, keyed, linksTo, jsonBody: JSON_BODY, temporal: TEMPORAL }),
      { id: 'getHealth', method: 'get', path: '/healthz', summary: 'The process answers', responses: { 200: { description: 'Up' } } },
      { id: 'getReadiness', method: 'get', path: '/readyz', summary: 'Temporal and the payment API answer', responses: { 200: { description: 'Ready' }, 503: { description: 'Not ready' } } },
    ] satisfies OperationSpec[]).map(limitedByAddress),
  );
}
