/**
 * What the routes take about a payout (parameters, queries, bodies: at the end), and what the API answers: the status query's content with amounts back in reais..
 */
import { z } from 'zod';
import { createdSchema, progressShape, VIEW_SOURCES } from '../lifecycle-view';
import { centavosToReais } from '../../money/centavos';
import type { CryptoQuote } from '../../payouts/rails/crypto/quote';
import { PAYOUT_METHODS } from '../../payouts/rails/methods';
import type { CopyPastePreview } from '../../payouts/rails/pix-copy-paste/preview';
import { PAYOUT_STATES, payoutWorkflowId } from '../../lifecycles/payout-client';
import { activityProblemSchema } from '../activity-problem';
import type { PayoutReading } from './service';
import { intentViewSchema, UNFINISHED_STATUSES } from '../unfinished-workflow';
import { payoutAmountSchema } from '../../payouts/rails/fields';
import { chargedCents } from '../../payouts/charged';

const stateSchema = z.enum(PAYOUT_STATES);

export const payoutAcceptedSchema = createdSchema(z.string(), {}, 'PayoutAccepted');

/** A crypto payout's price: reais for the fee and total, USDT as a 6-place decimal string. */
export const cryptoQuoteResponseSchema = z.object({
  amount: z.number(),
  fee: z.number(),
  total: z.number(),
  usdtAmount: z.string(),
  usdtRate: z.number(),
  minAmount: z.number(),
  maxAmount: z.number(),
});

export const copyPastePreviewResponseSchema = z.object({
  payee: z.object({ name: z.string(), city: z.string(), pixKey: z.string().optional(), url: z.string().optional() }),
  amount: z.number(),
  txid: z.string().optional(),
  reusable: z.boolean(),
  fee: z.number(),
  total: z.number(),
});

export const payoutResponseSchema = z
  .object({
    externalId: z.string(),
    workflowId: z.string(),
    method: z.enum(PAYOUT_METHODS),
    status: stateSchema,
    amount: z.number(),
    /** What the provider charged: 0 on a FAILED payout, whose amount and fee the provider refunds. */
    fee: z.number().optional(),
    /** amount + fee taken from the balance: 0 on a FAILED payout. */
    total: z.number().optional(),
    quote: cryptoQuoteResponseSchema.optional(),
    providerTransactionId: z.string().optional(),
    providerState: z.string().optional(),
    /** The PIX end-to-end id, once the provider gave one (its transaction check, or a signed callback). */
    endToEndId: z.string().optional(),
    failureReason: z.string().optional(),
    reviewReason: z.string().optional(),
    batchId: z.string().optional(),
    ...progressShape(stateSchema),
    /** While an activity keeps failing (the provider out of reach, say): which one, why, since when. */
    problem: activityProblemSchema.optional(),
    keyType: z.string().optional(),
    pixKey: z.string().optional().describe('The PIX key it was sent to, masked'),
    /**
     * `index`: no worker answered in time, so only the state, amount and batch from the visibility index are shown;
     * `store`: Temporal no longer has the workflow (retention), so the engine's database answers with its last view.
     */
    source: z.enum(VIEW_SOURCES),
    /**
     * Present when the payout's workflow closed without its outcome (an operator terminated it, say): how it
     * closed and what its submission intent says was sent. `POST …/recheck` re-runs it to settle it.
     */
    workflowStatus: z.enum(UNFINISHED_STATUSES).optional(),
    submission: intentViewSchema.optional(),
  })
  .meta({ id: 'Payout' });
export type PayoutResponse = z.infer<typeof payoutResponseSchema>;

const optionalReais = (centavos: number | undefined): number | undefined =>
  centavos === undefined ? undefined : centavosToReais(centavos);

export function cryptoQuoteResponse(quote: CryptoQuote): z.infer<typeof cryptoQuoteResponseSchema> {
  return {
    amount: centavosToReais(quote.amountCents),
    fee: centavosToReais(quote.feeCents),
    total: centavosToReais(quote.totalCents),
    usdtAmount: quote.usdtAmount,
    usdtRate: quote.usdtRate,
    minAmount: centavosToReais(quote.minCents),
    maxAmount: centavosToReais(quote.maxCents),
  };
}

export function copyPastePreviewResponse(preview: CopyPastePreview): z.infer<typeof copyPastePreviewResponseSchema> {
  return {
    payee: preview.payee,
    amount: centavosToReais(preview.amountCents),
    ...(preview.txid ? { txid: preview.txid } : {}),
    reusable: preview.reusable,
    fee: centavosToReais(preview.feeCents),
    total: centavosToReais(preview.totalCents),
  };
}

export function payoutResponse({ view, source, unfinished, destination }: PayoutReading): PayoutResponse {
  const charged = chargedCents(view);
  return {
    externalId: view.externalId,
    workflowId: payoutWorkflowId(view.externalId),
    method: view.method,
    status: view.state,
    amount: centavosToReais(view.amountCents),
    fee: optionalReais(charged.feeCents),
    total: optionalReais(charged.totalCents),
    quote: view.quote ? cryptoQuoteResponse(view.quote) : undefined,
    providerTransactionId: view.providerTransactionId,
    providerState: view.providerState,
    endToEndId: view.endToEndId,
    failureReason: view.failureReason,
    reviewReason: view.reviewReason,
    batchId: view.batchId,
    callbacksReceived: view.callbacksReceived,
    checksMade: view.checksMade,
    transitions: [...view.transitions],
    problem: view.problem,
    keyType: destination?.keyType,
    pixKey: destination?.pixKey,
    source,
    workflowStatus: unfinished?.executionStatus,
    submission: unfinished?.submission,
  };
}

// ---- What the routes take: queries and bodies (the path's externalId: lifecycle-routes.ts) ----

export const cancelPayoutBodySchema = z
  .object({ reason: z.string().trim().min(1).max(200).default('requested by operator') })
  .strict();

/** `amount` in reais, as in a payout request (query text, so coerced). */
export const payoutQuoteQuerySchema = z.strictObject({
  method: z.literal('crypto'),
  // The bounds of a payout amount, stated on the coerced number too so that the document carries them.
  amount: z.coerce
    .number()
    .meta({ exclusiveMinimum: 0, maximum: 1_000_000, multipleOf: 0.01 })
    .pipe(payoutAmountSchema),
});
