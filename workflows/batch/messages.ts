/** What a payout batch workflow hears and says; shared by the workflow and the engine API. */
import { defineQuery, defineSignal } from '@temporalio/workflow';

/** An activity of the batch that kept failing past the bounded time: shown until a later attempt succeeds. */
export interface BatchProblem {
  activity: string;
  message: string;
  since: string;
}

export interface BatchProgress {
  batchId: string;
  /** Highest item sequence handed to a payout workflow: items 1..cursor have been started. */
  cursor: number;
  inFlight: number;
  paused: boolean;
  cancelled: boolean;
  runsSoFar: number;
  problem?: BatchProblem;
}

export const pauseBatchSignal = defineSignal('pauseBatch');
export const resumeBatchSignal = defineSignal('resumeBatch');
export const cancelBatchSignal = defineSignal('cancelBatch');
export const batchProgressQuery = defineQuery<BatchProgress>('progress');

/** The search attribute `PayoutFlow` of a payout batch. */
export const BATCH_FLOW = 'payout-batch';

export function batchWorkflowId(batchId: string): string {
  return `payout-batch:${batchId}`;
}
