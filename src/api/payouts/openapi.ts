/** The payout operations of the engine's OpenAPI document, and the provider's final-status callbacks of each rail. */
import { z } from 'zod';
import { withRequestExamples, type OperationSpec } from '../../openapi/document';
import { payoutShapeSchema } from '../../payouts/payout-request';
import { copyPastePreviewRequestSchema } from '../../payouts/rails/pix-copy-paste/preview';
import { RAIL_PROVIDERS } from '../../payouts/rails/providers';
import { callbackHeaders, errors, JSON_BODY, keyed, linksTo, TEMPORAL } from '../openapi-helpers';
import { copyPastePreviewResponseSchema, cryptoQuoteResponseSchema, payoutAcceptedSchema, payoutResponseSchema, cancelPayoutBodySchema, payoutParamsSchema, payoutQuoteQuerySchema } from './schemas';

/** The documentation's examples: the examples phase of `npm run fuzz` sends them, so reads find real payouts. */
const examplePayout = { externalId: 'order-1001', amount: 25, pixKey: '52998224725', keyType: 'CPF' };
const payoutBody = withRequestExamples(payoutShapeSchema, [examplePayout]);
const payoutParams = z.object({ externalId: payoutParamsSchema.shape.externalId.meta({ examples: [examplePayout.externalId] }) });

export const payoutOperations: OperationSpec[] = [
  keyed('payouts:write', {
    id: 'submitPayout', description: 'Starts the payout\'s workflow (payout:<externalId>) and answers at once with RECEIVED; the payout reaches the provider at most once per externalId, and the same request sent again answers the same payout. Follow it with getPayout or the payout.* events. A pix_key payout takes pixKey and keyType (CPF, EMAIL, PHONE); pix_copy_paste an emv code; internal an email; crypto a wallet and network.', method: 'post', path: '/v1/payouts', summary: 'Submit a payout (idempotent by externalId) by `method`: pix_key (default), pix_copy_paste, internal or crypto', body: payoutBody,
    responses: {
      202: {
        description: 'Accepted, or the existing payout for a repeated identical request',
        schema: payoutAcceptedSchema,
        links: linksTo(['getPayout', 'recheckPayout', 'cancelPayout'], { externalId: '$response.body#/externalId' }),
      },
      ...errors({
        ...JSON_BODY,
        409: 'A different payout has this externalId, or it is an item of a batch',
        422: "Not payable as requested: a pixKey that does not fit its keyType, a BR Code that does not read (CRC, fields) or whose amount differs, a wallet not of its network, a crypto amount outside the provider's bounds; RAIL_NOT_AVAILABLE: a rail that is off (crypto without the provider's route, PAYMENT_API_CRYPTO_WITHDRAW_PATH)",
        503: "Temporal unavailable or did not answer in time, or the provider's crypto fees could not be read: retry",
      }),
    },
  }),
  keyed('payouts:write', {
    id: 'previewCopyPaste', description: 'Reads a PIX copy-and-paste (BR Code) as a pix_copy_paste payout would: the payee, the amount (the code\'s, or the one sent for a code without one), the txid and the fee. Nothing is paid and nothing is stored.', method: 'post', path: '/v1/payouts/preview', summary: 'Read a PIX copy-and-paste code without paying it: payee, amount, txid and the fee', body: copyPastePreviewRequestSchema,
    responses: { 200: { description: 'What paying the code would do', schema: copyPastePreviewResponseSchema }, ...errors({ ...JSON_BODY, 422: 'A code that does not read, or a missing or different amount' }) },
  }),
  keyed('payouts:write', {
    id: 'quoteCrypto', description: 'The fee and the USDT amount a crypto payout of this amount would have at the provider\'s fees now. Nothing is paid; the payout itself is checked again when it is submitted.', method: 'get', path: '/v1/payouts/quote', summary: "A crypto payout's fee and USDT at the provider's current fees, without paying", query: payoutQuoteQuerySchema,
    responses: { 200: { description: 'The quote', schema: cryptoQuoteResponseSchema }, ...errors({ 400: 'Bad query', 422: "Amount outside the provider's bounds", 503: 'The provider could not be asked' }) },
  }),
  keyed('read', {
    id: 'getPayout', description: 'The payout as it stands: its status, amounts (amount, fee, total in reais), the provider\'s transaction id once known, a failure or review reason, and every transition with its time.', method: 'get', path: '/v1/payouts/:externalId', summary: 'The payout, its amounts and its transition history', params: payoutParams,
    responses: { 200: { description: 'The payout', schema: payoutResponseSchema }, ...errors({ 400: 'Invalid externalId', 404: 'Unknown payout', ...TEMPORAL }) },
  }),
  keyed('operator', {
    id: 'recheckPayout', description: 'Operators: asks the provider for the payout\'s outcome now instead of at the next scheduled check, and answers the payout after that check. A payout whose workflow was terminated after its submission is re-run from what it had sent (never sent twice).', method: 'post', path: '/v1/payouts/:externalId/recheck', summary: 'Ask the provider again; re-run a terminated payout (operators)', params: payoutParams,
    responses: {
      200: { description: 'The payout after the check (a terminated one: its re-run)', schema: payoutResponseSchema },
      ...errors({ 400: 'Invalid externalId', 404: 'Unknown payout', 409: 'Terminated before anything was sent: nothing to recheck', ...TEMPORAL }),
    },
  }),
  keyed('operator', {
    id: 'cancelPayout', description: 'Operators: cancels a payout the provider has not taken yet (RECEIVED): the provider is asked to confirm it has no record, then the payout is CANCELLED. A payout already submitted or final answers 409.', method: 'post', path: '/v1/payouts/:externalId/cancel', summary: 'Cancel a payout not yet at the provider (operators)', params: payoutParams,
    body: cancelPayoutBodySchema, bodyOptional: true,
    responses: {
      200: { description: 'Cancelled', schema: payoutResponseSchema },
      ...errors({ ...JSON_BODY, 404: 'Unknown payout', 409: 'Already submitted or final', ...TEMPORAL }),
    },
  }),
];

export const payoutCallbackOperations: OperationSpec[] = [
  ...Object.values(RAIL_PROVIDERS).flatMap((rail): OperationSpec[] =>
    rail.callback
      ? [{
          id: `receive${rail.callback.path.replace('/callbacks/', '').replace(/(^|[-_/])(\w)/g, (_match: string, _separator: string, letter: string) => letter.toUpperCase())}Callback`,
          method: 'post', path: rail.callback.path, summary: `The provider's signed final-status callbacks of ${rail.callback.path.replace('/callbacks/', '')} payouts`, headers: callbackHeaders, body: rail.callback.schema,
          description: "Called by the provider, signed: verified over the raw body, then signalled to the payout as a hint; the payout confirms the outcome with the provider's transaction check before it is final.",
          responses: {
            200: { description: 'Signalled to the payout' },
            202: { description: 'Unknown payout: kept for operators' },
            ...errors({ 400: 'Invalid body', 401: 'Bad or stale signature', 413: 'The body is too large', ...TEMPORAL }),
          },
        }]
      : [],
  ),
];
