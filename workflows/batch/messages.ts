/** What a payout batch workflow hears and says; shared by the workflow and the engine API. */
import { defineQuery, defineSignal } from '@temporalio/workflow';

export interface BatchProgress {
  batchId: string;
  /** Highest item sequence handed to a payout workflow: items 1..cursor have been started. */
  cursor: number;
  inFlight: number;
  paused: boolean;
  cancelled: boolean;
  runsSoFar: number;
}

export const pauseBatchSignal = defineSignal('pauseBatch');
export const resumeBatchSignal = defineSignal('resumeBatch');
export const cancelBatchSignal = defineSignal('cancelBatch');
export const batchProgressQuery = defineQuery<BatchProgress>('progress');

export function batchWorkflowId(batchId: string): string {
  return `payout-batch:${batchId}`;
}
