/**
 * The payout batch lifecycle's client: its workflow started once its items are in the batch store (id
 * `payout-batch:<batchId>`, never reused), and the handle its signals and progress query go through.
 */
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import { batchWorkflowId, type BatchInput, type PayoutBatchWorkflow } from '../contracts/batch';
import { lifecycleHandle } from './lifecycle-client';

/** The workflow's contract (ids, signals, queries, input, progress): code outside workflows/ takes it from here. */
export * from '../contracts/batch';

/** 'exists' when the batch's workflow was already started (running or closed). */
export async function startBatchWorkflow(
  client: Client,
  input: BatchInput,
  taskQueue: string,
): Promise<'started' | 'exists'> {
  try {
    await client.workflow.start<PayoutBatchWorkflow>('payoutBatchWorkflow', {
      workflowId: batchWorkflowId(input.batchId),
      taskQueue,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      staticSummary: `Batch of ${input.total} payouts`,
      args: [input],
    });
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'exists';
    throw error;
  }
}

/** A batch's workflow by its batchId: its signals and progress query go through it. */
export const batchHandle = lifecycleHandle<PayoutBatchWorkflow>(batchWorkflowId);
