/**
 * A payout batch, id `payout-batch:<batchId>`, started by the engine API once its items are in the batch
 * store. This function only wires the messages to the state machine (./batch.ts).
 */
import { setHandler, setWorkflowOptions } from '@temporalio/workflow';
import { PayoutBatch } from './batch';
import {
  batchProgressQuery,
  cancelBatchSignal,
  pauseBatchSignal,
  resumeBatchSignal,
  type BatchInput,
  type BatchResult,
} from '../../src/contracts/batch';

// Auto-upgrade (Worker Versioning on): it lives for days or months, so it moves to the current build at its next task;
// its changes are behind patched() markers, which keep it replaying there.
setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, payoutBatchWorkflow);

export async function payoutBatchWorkflow(input: BatchInput): Promise<BatchResult> {
  const batch = new PayoutBatch(input);
  setHandler(pauseBatchSignal, () => batch.pause());
  setHandler(resumeBatchSignal, () => batch.resume());
  setHandler(cancelBatchSignal, () => batch.cancel());
  setHandler(batchProgressQuery, () => batch.view());
  return batch.runToEnd();
}
