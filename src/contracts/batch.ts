/** What a payout batch workflow hears and says; shared by the workflow and the engine API. */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { PayoutTiming } from '../payouts/payout-input';

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

export interface BatchSettings {
  /** Payouts in flight at most. */
  window: number;
  /** Optional cap on payouts started per second. */
  ratePerSecond?: number;
  /** Most items started by one activity call. */
  pageSize: number;
  /** How often the workflow reads the counts while the window is full. */
  pollMs: number;
  /** Continue as new past this many history events. */
  maxHistoryEvents: number;
  /** An activity failing this long is shown as the batch's problem (status STALLED), then tried again with backoff. */
  problemAfterMs?: number;
}

/** What a run continued as new carries over. */
interface CarriedState {
  cursor: number;
  paused: boolean;
  cancelled: boolean;
  runsSoFar: number;
}

export interface BatchInput {
  batchId: string;
  total: number;
  settings: BatchSettings;
  timing: PayoutTiming;
  carried?: CarriedState;
}

export interface BatchResult {
  batchId: string;
  cancelled: boolean;
  runs: number;
}

export type PayoutBatchWorkflow = (input: BatchInput) => Promise<BatchResult>;

export const pauseBatchSignal = defineSignal('pauseBatch');
export const resumeBatchSignal = defineSignal('resumeBatch');
export const cancelBatchSignal = defineSignal('cancelBatch');
export const batchProgressQuery = defineQuery<BatchProgress>('progress');

/** The search attribute `PayoutFlow` of a payout batch. */
export const BATCH_FLOW = 'payout-batch';

export function batchWorkflowId(batchId: string): string {
  return `payout-batch:${batchId}`;
}
