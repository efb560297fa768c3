/**
 * How the payout workflow calls its activities: their timeouts and retries, per path of the workflow.
 *
 * Version 2 and later run the provider calls as local activities: a call is one marker in the history instead
 * of scheduled/started/completed plus a workflow task to read the result, so a payout completed by callback
 * costs two workflow tasks (submit and wait; check and settle) and 16 events (version 3; version 2's patch
 * adds three) instead of four and 26. Version 3 differs from 2 only in how the payout indexes the provider's
 * id (workflows/payouts/payout.ts). Inputs without a version replay the remote-activity path they were recorded on.
 *
 * Only the submission's first attempt is local: a provider that is down is retried by the server, as
 * before, not by local retries that hold a workflow task open (heartbeated) for as long as the deadline.
 * A local activity runs again, as attempt 1, when its workflow task is lost (timed out under load, worker
 * gone), and nothing in history says that it ran: only rails that can be looked up by external_id submit
 * locally, and one scheduled by any task but the workflow's first looks its payout up before it posts.
 */
import {
  ActivityCancellationType,
  proxyActivities,
  proxyLocalActivities,
  workflowInfo,
  type ActivityOptions,
  type LocalActivityOptions,
} from '@temporalio/workflow';
import type { PayoutActivities } from '../../activities/payout-activities';
import { methodOf, runsVersion, type PayoutInput } from '../../src/payouts/payout-input';
import { METHODS_CHECKED_BY_EXTERNAL_ID } from '../../src/payouts/rails/methods';
import { retryableFailure } from '../shared/activity-failures';

// A check that keeps failing returns "unknown" quickly: the callers have their own loops and deadlines.
const CHECK: ActivityOptions & LocalActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
};

function submitOptions(deadlineMs: number): ActivityOptions & LocalActivityOptions {
  return {
    startToCloseTimeout: '30 seconds',
    // A cancel must not race a POST in flight: wait until the running attempt has ended, so that the
    // reconciliation that follows sees what that attempt did (local activities honour this type too).
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    scheduleToCloseTimeout: deadlineMs,
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '1 minute',
      nonRetryableErrorTypes: ['Conflict'],
    },
  };
}

// A local write on the worker's machine: no extra workflow task per payout, retried until it lands.
const SETTLE: LocalActivityOptions = {
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
};

export const { recordBatchOutcome, recordPayoutReview, recordPayoutRow, settlePayout } =
  proxyLocalActivities<PayoutActivities>(SETTLE);

export interface ProviderCalls {
  submitWithdrawal(input: PayoutInput): ReturnType<PayoutActivities['submitWithdrawal']>;
  checkWithdrawal: PayoutActivities['checkWithdrawal'];
  /** Version 2 and later: every payout ends with one settlePayout(view); before it, only a batch's payout reported its end. */
  settlesEveryPayout: boolean;
}

export function providerCalls(input: PayoutInput): ProviderCalls {
  const submit = submitOptions(input.timing.submitDeadlineMs);
  if (runsVersion(input, 2)) {
    return {
      submitWithdrawal: (payout) =>
        METHODS_CHECKED_BY_EXTERNAL_ID.has(methodOf(payout))
          ? submitLocallyFirst(payout, submit)
          : proxyActivities<PayoutActivities>(submit).submitWithdrawal(payout),
      checkWithdrawal: proxyLocalActivities<PayoutActivities>(CHECK).checkWithdrawal,
      settlesEveryPayout: true,
    };
  }
  return {
    submitWithdrawal: (payout) => proxyActivities<PayoutActivities>(submit).submitWithdrawal(payout),
    checkWithdrawal: proxyActivities<PayoutActivities>(CHECK).checkWithdrawal,
    settlesEveryPayout: false,
  };
}

/** Events of a workflow's history when its first task starts: started, task scheduled, task started. */
const FIRST_TASK_HISTORY_LENGTH = 3;

/**
 * Whether an earlier workflow task may have run this local submission already: any task but the first
 * follows one (a task that timed out or failed, with the provider's answer lost with it). A signal that came
 * before the first task makes it look like a later one too; that costs a look-up, never a second post.
 */
function mayFollowLostTask(): boolean {
  return workflowInfo().historyLength > FIRST_TASK_HISTORY_LENGTH;
}

/**
 * One local attempt, then the same submission as a remote activity retried by the server until what
 * is left of the deadline. Its attempts count after the local one, so that each asks the provider
 * (reconciles) before it posts again: exactly once holds across the two, and across a lost workflow task.
 */
async function submitLocallyFirst(
  input: PayoutInput,
  options: ActivityOptions & LocalActivityOptions,
): ReturnType<PayoutActivities['submitWithdrawal']> {
  const startedAt = new Date().getTime();
  try {
    const local = proxyLocalActivities<PayoutActivities>({
      ...options,
      retry: { ...options.retry, maximumAttempts: 1 },
    });
    return await local.submitWithdrawal(input, mayFollowLostTask() ? 1 : 0);
  } catch (error) {
    if (!retryableFailure(error)) throw error;
    const left = input.timing.submitDeadlineMs - (new Date().getTime() - startedAt);
    if (left <= 0) throw error;
    return proxyActivities<PayoutActivities>({ ...options, scheduleToCloseTimeout: left }).submitWithdrawal(input, 1);
  }
}
