/** How the payout workflow calls its activities: their timeouts and retries. */
import {
  ActivityCancellationType,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import type { PayoutActivities } from '../../activities/payout-activities';

// A check that keeps failing returns "unknown" quickly: the callers have their own loops and deadlines.
export const { checkWithdrawal } = proxyActivities<PayoutActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

// A local write on the worker's machine: no extra workflow task per payout, retried until it lands.
export const { recordBatchOutcome } = proxyLocalActivities<PayoutActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

export function submitActivities(deadlineMs: number) {
  return proxyActivities<PayoutActivities>({
    startToCloseTimeout: '30 seconds',
    // A cancel must not race a POST in flight: wait until the running attempt has ended, so that the
    // reconciliation that follows sees what that attempt did.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    scheduleToCloseTimeout: deadlineMs,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: ['Conflict'] },
  });
}
