/**
 * Why a submission that did not succeed goes to review, and the transition's cause. The deadline's failure
 * carries the last attempt's under it: when that attempt knew the outcome to be unknown (a send whose
 * answer was lost, which the provider has no record of), its words are the reason.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import { failureMessage, failureType } from '../shared/activity-failures';
import { SUBMISSION_OUTCOME_UNKNOWN } from '../../src/contracts/payout';

/** The first application failure down the cause chain: what the last attempt threw, under the timeout that ended its retries. */
function lastAttemptFailure(error: unknown): ApplicationFailure | undefined {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof ApplicationFailure) return cause;
  }
  return undefined;
}

export function submissionReview(error: unknown): { reason: string; cause: string } {
  if (failureType(error) === 'Conflict')
    return {
      reason: `submission did not succeed: ${failureMessage(error)}`,
      cause: 'provider holds a different withdrawal with this external_id',
    };
  const last = lastAttemptFailure(error);
  if (last?.type === SUBMISSION_OUTCOME_UNKNOWN)
    return { reason: last.message, cause: 'submission deadline passed with the outcome unknown' };
  return { reason: `submission did not succeed: ${failureMessage(error)}`, cause: 'submission deadline passed' };
}
