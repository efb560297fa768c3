/**
 * Everything the outside world says to a payout workflow, defined once: the engine API and the
 * callback router import these, the workflow implements them.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { methodOf, type PayoutInput } from '../payouts/payout-input';
import type { CryptoQuote } from '../payouts/rails/crypto/quote';
import { PAYOUT_FLOWS, type PayoutMethod } from '../payouts/rails/methods';
import { PAYOUT_STATES, type PayoutSettlement, type PayoutState } from '../payouts/payout-state';
import { chargedCents } from '../payouts/charged';
import type { ActivityProblem } from './activity-problem';
import type { Transition, TransitionTable } from './lifecycle';

/**
 * The payout's states (listed in the domain, src/payouts/payout-state.ts, since its batch counts them
 * too) and the only moves between them. NEEDS_REVIEW is where a payout whose outcome
 * could not be established waits for an operator: a recheck can still settle it, a cancel can end it
 * when the provider has no record of it.
 */
export { PAYOUT_STATES, type PayoutSettlement, type PayoutState };

export const PAYOUT_TRANSITIONS: TransitionTable<PayoutState> = {
  RECEIVED: ['SUBMITTED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW'],
  SUBMITTED: ['COMPLETED', 'FAILED', 'NEEDS_REVIEW'],
  NEEDS_REVIEW: ['SUBMITTED', 'COMPLETED', 'FAILED', 'CANCELLED'],
  COMPLETED: [],
  FAILED: [],
  CANCELLED: [],
};

/**
 * The failure type of a submission attempt that found nothing at the provider after a send whose answer was
 * lost: the outcome is unknown, and the payout is only looked up, never sent again, until the deadline.
 */
export const SUBMISSION_OUTCOME_UNKNOWN = 'OutcomeUnknown';

/** What a provider callback tells the workflow: a hint, confirmed by the transaction check. No PII. */
export interface WithdrawalCallbackHint {
  status: string;
  transactionId?: string;
  reason?: string;
  /** The PIX end-to-end id the signed callback named. */
  endToEndId?: string;
  receivedAt: string;
}

export interface PayoutView {
  externalId: string;
  method: PayoutMethod;
  state: PayoutState;
  amountCents: number;
  feeCents?: number;
  totalCents?: number;
  providerTransactionId?: string;
  providerState?: string;
  /** The PIX end-to-end id, once the provider gave one (its transaction check, or a signed callback). */
  endToEndId?: string;
  /** Crypto: the fees applied and the USDT delivered. */
  quote?: CryptoQuote;
  failureReason?: string;
  reviewReason?: string;
  batchId?: string;
  requestHash: string;
  callbacksReceived: number;
  checksMade: number;
  transitions: readonly Transition<PayoutState>[];
  /** Added to the status query's answer by the workflow interceptor while an activity keeps failing. */
  problem?: ActivityProblem;
}

export function settlementOf(view: PayoutView): PayoutSettlement {
  const { feeCents } = chargedCents(view);
  return {
    externalId: view.externalId,
    state: view.state,
    ...(feeCents === undefined ? {} : { feeCents }),
    ...(view.failureReason ? { failureReason: view.failureReason } : {}),
  };
}

export type CancelOutcome =
  { cancelled: true; view: PayoutView } | { cancelled: false; reason: string; view: PayoutView };

/** The workflow's signature, for whoever starts it without importing the workflow's code. */
export type PayoutWorkflow = (input: PayoutInput) => Promise<PayoutView>;

export const withdrawalCallbackSignal = defineSignal<[WithdrawalCallbackHint]>('withdrawalCallback');
/**
 * The same callback as an update (payouts of version 4): its workflow task is written only once it completes, where
 * the signal is persisted on arrival and then dispatched. Taken as the signal is: a hint, the check decides.
 */
export const withdrawalCallbackUpdate = defineUpdate<void, [WithdrawalCallbackHint]>('withdrawalCallback');
export const payoutStatusQuery = defineQuery<PayoutView>('status');
/** Ask the provider now. Refused (validator) while it is being submitted and once it is final: its view is then the answer. */
export const recheckPayoutUpdate = defineUpdate<PayoutView>('recheck');
/**
 * Ask the provider at the next chance, answering nothing: what the API sends when the workflow could not take the
 * update at once (its task busy with the submission, say) or is still being submitted. Taken like a recheck.
 */
export const recheckAskedSignal = defineSignal('recheckAsked');
/** Refused (validator) once the payout is at the provider or final; otherwise answered when the provider has been asked. */
export const cancelPayoutUpdate = defineUpdate<CancelOutcome, [{ reason: string }]>('cancel');

/** The flow of a payout is its rail (search attribute `PayoutFlow`); inputs recorded before rails existed are PIX-key payouts. */
export function payoutFlow(input: Pick<PayoutInput, 'method'>): string {
  return PAYOUT_FLOWS[methodOf(input)];
}

export function payoutWorkflowId(externalId: string): string {
  return `payout:${externalId}`;
}
