/** The batch store as the place payouts of a batch report to (the payout's outcome port). */
import { batchItemOutcomes } from '../metrics/engine-metrics';
import type { PayoutOutcomeRecorder } from '../payouts/payout-outcome-recorder';
import type { PayoutSettlement } from '../payouts/payout-state';
import type { BatchStore, ItemOutcome } from './batch-store';

/** How a payout's state reads in its batch: RECEIVED and SUBMITTED are both "started". */
export function itemOutcome(settlement: PayoutSettlement): ItemOutcome {
  return {
    externalId: settlement.externalId,
    state: settlement.state === 'RECEIVED' || settlement.state === 'SUBMITTED' ? 'STARTED' : settlement.state,
    ...(settlement.feeCents === undefined ? {} : { feeCents: settlement.feeCents }),
    ...(settlement.failureReason ? { failureReason: settlement.failureReason } : {}),
  };
}

export function batchOutcomeRecorder(store: BatchStore): PayoutOutcomeRecorder {
  return {
    async record(batchId, settlement) {
      const outcome = itemOutcome(settlement);
      await store.recordOutcomes(batchId, [outcome]);
      batchItemOutcomes.inc({ state: outcome.state });
    },
  };
}
