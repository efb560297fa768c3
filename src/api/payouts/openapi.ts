/** The payout operations of the engine's OpenAPI document, and the provider's final-status callbacks of each rail. */
import { withParamExamples, withRequestExamples, type OperationSpec } from '../../openapi/document';
import { externalIdParamsSchema } from '../lifecycle-routes';
import { payoutShapeSchema } from '../../payouts/payout-request';
import { copyPastePreviewRequestSchema } from '../../payouts/rails/pix-copy-paste/preview';
import { aboutOne, errors, listAnswers, JSON_BODY, keyed, linksTo, TEMPORAL } from '../openapi-helpers';
import {
  payoutEventsResponseSchema,
  payoutListQuerySchema,
  payoutListResponseSchema,
  payoutSummaryQuerySchema,
  payoutSummaryResponseSchema,
} from './list-schemas';
import {
  copyPastePreviewResponseSchema,
  cryptoQuoteResponseSchema,
  payoutAcceptedSchema,
  payoutResponseSchema,
  cancelPayoutBodySchema,
  payoutQuoteQuerySchema,
} from './schemas';

/** The documentation's examples: the examples phase of `npm run fuzz` sends them, so reads find real payouts. */
const examplePayout = { externalId: 'order-1001', amount: 25, pixKey: '52998224725', keyType: 'CPF' };
const payoutBody = withRequestExamples(payoutShapeSchema, [examplePayout]);
const payoutParams = withParamExamples(externalIdParamsSchema, examplePayout);

export const payoutOperations: OperationSpec[] = [
  keyed('payouts:write', {
    id: 'submitPayout',
    description:
      "Starts the payout's workflow (payout:<externalId>) and answers at once with RECEIVED; the payout reaches the provider at most once per externalId, and the same request sent again answers the same payout. Follow it with getPayout or the payout.* events. A pix_key payout takes pixKey and keyType (CPF, EMAIL, PHONE); pix_copy_paste an emv code; internal an email; crypto a wallet and network.",
    method: 'post',
    path: '/v1/payouts',
    summary:
      'Submit a payout (idempotent by externalId) by `method`: pix_key (default), pix_copy_paste, internal or crypto',
    body: payoutBody,
    responses: {
      202: {
        description: 'Accepted, or the existing payout for a repeated identical request',
        schema: payoutAcceptedSchema,
        links: linksTo(['getPayout', 'recheckPayout', 'cancelPayout'], { externalId: '$response.body#/externalId' }),
      },
      ...errors({
        ...JSON_BODY,
        409: 'A different payout has this externalId (PAYOUT_CONFLICT: `issues` names each field that differs from the stored request), or it is an item of a batch',
        422: "Not payable as requested: a pixKey that does not fit its keyType, a BR Code that does not read (CRC, fields) or whose amount differs, a wallet not of its network, a crypto amount outside the provider's bounds; RAIL_NOT_AVAILABLE: a rail that is off (crypto without the provider's route, PAYMENT_API_CRYPTO_WITHDRAW_PATH)",
        503: "Temporal unavailable or did not answer in time, or the provider's crypto fees could not be read: retry",
      }),
    },
  }),
  keyed('payouts:write', {
    id: 'previewCopyPaste',
    description:
      "Reads a PIX copy-and-paste (BR Code) as a pix_copy_paste payout would: the payee, the amount (the code's, or the one sent for a code without one), the txid and the fee. Nothing is paid and nothing is stored.",
    method: 'post',
    path: '/v1/payouts/preview',
    summary: 'Read a PIX copy-and-paste code without paying it: payee, amount, txid and the fee',
    body: copyPastePreviewRequestSchema,
    responses: {
      200: { description: 'What paying the code would do', schema: copyPastePreviewResponseSchema },
      ...errors({ ...JSON_BODY, 422: 'A code that does not read, or a missing or different amount' }),
    },
  }),
  keyed('payouts:write', {
    id: 'quoteCrypto',
    description:
      "The fee and the USDT amount a crypto payout of this amount would have at the provider's fees now. Nothing is paid; the payout itself is checked again when it is submitted.",
    method: 'get',
    path: '/v1/payouts/quote',
    summary: "A crypto payout's fee and USDT at the provider's current fees, without paying",
    query: payoutQuoteQuerySchema,
    responses: {
      200: { description: 'The quote', schema: cryptoQuoteResponseSchema },
      ...errors({
        400: 'Bad query',
        422: "Amount outside the provider's bounds",
        503: 'The provider could not be asked',
      }),
    },
  }),
  keyed('read', {
    id: 'listPayouts',
    description:
      "The payouts of the engine's own database (written when a payout is accepted and at each of its moves, kept after Temporal's retention), newest first by creation time then externalId; each with its amounts and the PIX key masked. Follow nextCursor until it is absent: pages neither repeat nor skip a payout.",
    method: 'get',
    path: '/v1/payouts',
    summary:
      "Payouts from the engine's database, newest first, optionally by status, method, batchId and creation time; paged by nextCursor",
    query: payoutListQuerySchema,
    responses: listAnswers({ description: 'A page of payouts (the PIX key masked)', schema: payoutListResponseSchema }),
  }),
  keyed('read', {
    id: 'summarizePayouts',
    description:
      'End-of-day reconciliation: counts and totals (amount, fee, total in reais, summed in centavos) of the payouts created on the days from..to of the time zone asked (America/Sao_Paulo by default), by status, by rail and by both.',
    method: 'get',
    path: '/v1/payouts/summary',
    summary:
      'Counts and sums (amount, fee) of the payouts created on the days from..to of a time zone, by status and by rail',
    query: payoutSummaryQuerySchema,
    responses: {
      200: { description: 'The totals', schema: payoutSummaryResponseSchema },
      ...errors({
        400: 'Bad query: every refused parameter is named in issues[]',
        422: 'INVALID_FILTER: a time zone the engine does not know, to before from, or more than 366 days',
      }),
    },
  }),
  keyed('read', {
    id: 'listPayoutEvents',
    description:
      "The merchant events announced about the payout (payout.completed, payout.failed, payout.needs_review, …), oldest first, with the data each carried; kept in the engine's database after Temporal forgets the payout.",
    method: 'get',
    path: '/v1/payouts/:externalId/events',
    summary:
      'The events announced about the payout, in the order they happened (kept after Temporal forgets the payout)',
    params: payoutParams,
    responses: aboutOne(
      { description: "The payout's events", schema: payoutEventsResponseSchema },
      'externalId',
      'Unknown payout',
    ),
  }),
  keyed('read', {
    id: 'getPayout',
    description:
      "The payout as it stands: its status, amounts (amount, fee, total in reais), the provider's transaction id once known, a failure or review reason, and every transition with its time.",
    method: 'get',
    path: '/v1/payouts/:externalId',
    summary: 'The payout, its amounts and its transition history',
    params: payoutParams,
    responses: aboutOne(
      { description: 'The payout', schema: payoutResponseSchema },
      'externalId',
      'Unknown payout',
      TEMPORAL,
    ),
  }),
  keyed('operator', {
    id: 'recheckPayout',
    description:
      "Operators: asks the provider for the payout's outcome now instead of at the next scheduled check, and answers the payout after that check. A payout whose workflow was terminated after its submission is re-run from what it had sent (never sent twice).",
    method: 'post',
    path: '/v1/payouts/:externalId/recheck',
    summary: 'Ask the provider again; re-run a terminated payout (operators)',
    params: payoutParams,
    responses: {
      200: {
        description: 'The payout after the check (a terminated one: its re-run; a final one: its view)',
        schema: payoutResponseSchema,
      },
      202: {
        description:
          'Taken: still being submitted, or its workflow busy; the current view, and the workflow asks the provider as soon as it can',
        schema: payoutResponseSchema,
      },
      ...errors({
        400: 'Invalid externalId',
        404: 'Unknown payout',
        409: 'Terminated before anything was sent: nothing to recheck',
        ...TEMPORAL,
      }),
    },
  }),
  keyed('operator', {
    id: 'cancelPayout',
    description:
      'Operators: cancels a payout the provider has not taken yet (RECEIVED): the provider is asked to confirm it has no record, then the payout is CANCELLED. A payout already submitted or final answers 409.',
    method: 'post',
    path: '/v1/payouts/:externalId/cancel',
    summary: 'Cancel a payout not yet at the provider (operators)',
    params: payoutParams,
    body: cancelPayoutBodySchema,
    bodyOptional: true,
    responses: {
      200: { description: 'Cancelled', schema: payoutResponseSchema },
      ...errors({ ...JSON_BODY, 404: 'Unknown payout', 409: 'Already submitted or final', ...TEMPORAL }),
    },
  }),
];
