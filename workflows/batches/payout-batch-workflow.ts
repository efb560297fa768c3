/**
 * A payout batch, id `payout-batch:<batchId>`, started by the engine API once its items are in the batch
 * store. This function only wires the messages to the state machine (./batch.ts).
 */
import { setHandler } from '@temporalio/workflow';
import { PayoutBatch } from './batch';
import { batchProgressQuery, cancelBatchSignal, pauseBatchSignal, resumeBatchSignal } from '../../src/contracts/batch';
import type { BatchInput, BatchResult } from '../../src/contracts/batch';

export async function payoutBatchWorkflow(input: BatchInput): Promise<BatchResult> {
  const batch = new PayoutBatch(input);
  setHandler(pauseBatchSignal, () => batch.pause());
  setHandler(resumeBatchSignal, () => batch.resume());
  setHandler(cancelBatchSignal, () => batch.cancel());
  setHandler(batchProgressQuery, () => batch.view());
  return batch.runToEnd();
}
