/**
 * What a payout workflow is started with, built the one way both the API (single payouts) and the batch
 * activity build it. Pure: workflows import these types.
 */
import type { Config } from '../config/env';
import type { PayoutRequest } from './payout-request';
import type { PayoutMethod } from './rails/methods';

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

export type PayoutInput = PayoutRequest & {
  batchId?: string;
  /** Fingerprint of the merchant's request, to tell a retry from a conflicting re-use of the id. */
  requestHash: string;
  timing: PayoutTiming;
  /**
   * Which path of the payout workflow runs, chosen by whoever starts it (payoutInput sets the current one).
   * Absent on inputs started before it existed: those replay the remote-activity path they were recorded on.
   * Carried in the input rather than the SDK's `patched()`, which writes a marker and a TemporalChangeVersion
   * upsert into every payout's history: two more events on the 16 a payout costs. The price: workers that know
   * a version must be deployed before the starters (API, batch activity) that set it.
   */
  workflowVersion?: PayoutWorkflowVersion;
};

/**
 * The payout workflow's paths; each version keeps the changes of those before it.
 * 2: provider calls and the settlement as local activities, one settlement call for every payout.
 * 3: the provider's id indexed in the same upsert as the move to SUBMITTED, without the
 *    `payout-provider-id-index` patch (version 2 marks it, and upserts it on its own: three events more).
 * 4: the provider's callback taken as an update too (`withdrawalCallbackUpdate`); older payouts take only the signal,
 *    so the API, finding no handler, signals them (and a worker rolled back never meets an update it cannot replay).
 */
export type PayoutWorkflowVersion = 2 | 3 | 4;
export const PAYOUT_WORKFLOW_VERSION: PayoutWorkflowVersion = 4;

/** Whether the payout takes the path of `version` (an input without a version is of version 1). */
export function runsVersion(input: Pick<PayoutInput, 'workflowVersion'>, version: PayoutWorkflowVersion): boolean {
  return (input.workflowVersion ?? 1) >= version;
}

/** Inputs recorded before the rails existed carry no method: they are PIX-key payouts. */
export function methodOf(input: Pick<PayoutInput, 'method'>): PayoutMethod {
  return (input as { method?: PayoutMethod }).method ?? 'pix_key';
}

export type PayoutTimingConfig = Pick<
  Config,
  | 'PAYOUT_CALLBACK_WAIT_MS'
  | 'PAYOUT_POLL_INITIAL_MS'
  | 'PAYOUT_POLL_MAX_MS'
  | 'PAYOUT_REVIEW_AFTER_MS'
  | 'PAYOUT_SUBMIT_DEADLINE_MS'
>;

export function payoutTiming(config: PayoutTimingConfig): PayoutTiming {
  return {
    callbackWaitMs: config.PAYOUT_CALLBACK_WAIT_MS,
    pollInitialMs: config.PAYOUT_POLL_INITIAL_MS,
    pollMaxMs: config.PAYOUT_POLL_MAX_MS,
    reviewAfterMs: config.PAYOUT_REVIEW_AFTER_MS,
    submitDeadlineMs: config.PAYOUT_SUBMIT_DEADLINE_MS,
  };
}
