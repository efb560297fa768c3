import { batchOutcomeRecorder } from '../src/batches/payout-outcomes';
import { createBatchActivities, type BatchActivityDependencies } from './batch-activities';
import { createChargeActivities, type ChargePaymentApi } from './charge-activities';
import { createCardPaymentActivities, type CardPaymentActivityDependencies } from './card-payment-activities';
import { createInfractionActivities, type InfractionActivityDependencies } from './infraction-activities';
import { createPayoutActivities, type PayoutActivityDependencies } from './payout-activities';

export type ActivityDependencies = Omit<PayoutActivityDependencies, 'outcomes' | 'api'> &
  BatchActivityDependencies &
  Omit<InfractionActivityDependencies, 'api'> & { api: PayoutActivityDependencies['api'] & InfractionActivityDependencies['api'] & ChargePaymentApi & CardPaymentActivityDependencies['api'] };

/** Every activity the worker registers, built from its dependencies; payouts report to the batch store. */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...createPayoutActivities({ ...deps, outcomes: batchOutcomeRecorder(deps.batchStore) }),
    ...createBatchActivities(deps),
    ...createInfractionActivities(deps),
    ...createChargeActivities(deps),
    ...createCardPaymentActivities(deps),
  };
}
