/**
 * Everything the outside world says to a payout workflow, defined once: the engine API and the
 * callback router import these, the workflow implements them.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Transition } from '../shared/lifecycle';
import type { PixKeyType } from '../../src/pix/keys';
import type { PayoutState } from './states';

export interface PayoutTiming {
  /** How long to wait for the provider's callback before polling the transaction check. */
  callbackWaitMs: number;
  pollInitialMs: number;
  pollMaxMs: number;
  /** From submission: past this without a confirmed outcome the payout goes to NEEDS_REVIEW. */
  reviewAfterMs: number;
  /** How long submission may keep failing (provider down) before NEEDS_REVIEW. */
  submitDeadlineMs: number;
}

export interface PayoutInput {
  externalId: string;
  amountCents: number;
  pixKey: string;
  keyType: PixKeyType;
  description?: string;
  batchId?: string;
  /** Fingerprint of the merchant's request, to tell a retry from a conflicting re-use of the id. */
  requestHash: string;
  timing: PayoutTiming;
}

/** What a provider callback tells the workflow: a hint, confirmed by the transaction check. No PII. */
export interface WithdrawalCallbackHint {
  status: string;
  transactionId?: string;
  reason?: string;
  receivedAt: string;
}

export interface PayoutView {
  externalId: string;
  state: PayoutState;
  amountCents: number;
  feeCents?: number;
  totalCents?: number;
  providerTransactionId?: string;
  providerState?: string;
  failureReason?: string;
  reviewReason?: string;
  batchId?: string;
  requestHash: string;
  callbacksReceived: number;
  checksMade: number;
  transitions: readonly Transition<PayoutState>[];
}

export type CancelOutcome = { cancelled: true; view: PayoutView } | { cancelled: false; reason: string; view: PayoutView };

export const withdrawalCallbackSignal = defineSignal<[WithdrawalCallbackHint]>('withdrawalCallback');
export const payoutStatusQuery = defineQuery<PayoutView>('status');
export const recheckPayoutUpdate = defineUpdate<PayoutView>('recheck');
export const cancelPayoutUpdate = defineUpdate<CancelOutcome, [{ reason: string }]>('cancel');

export function payoutWorkflowId(externalId: string): string {
  return `payout:${externalId}`;
}
