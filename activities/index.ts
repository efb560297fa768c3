import { createBatchActivities, type BatchActivityDependencies } from './batch-activities';
import { createPayoutActivities, type PayoutActivityDependencies } from './payout-activities';

export type ActivityDependencies = PayoutActivityDependencies & BatchActivityDependencies;

/** Every activity the worker registers, built from its dependencies. */
export function createActivities(deps: ActivityDependencies) {
  return { ...createPayoutActivities(deps), ...createBatchActivities(deps) };
}
