import type { PayoutSettlement } from './payout-state';

/**
 * Where a payout of a batch reports where it stands (final, or waiting for review), so that its batch
 * can count it without reading every workflow. The batch store implements it; the payout knows no batch.
 */
export interface PayoutOutcomeRecorder {
  record(batchId: string, settlement: PayoutSettlement): Promise<void>;
}
