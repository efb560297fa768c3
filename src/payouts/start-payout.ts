/**
 * Starting a payout workflow, the one way both the API (single payouts) and the batch activity do it:
 * the business id as workflow id, never reused, and the request's hash in the memo so that a repeated
 * request can be told from a conflicting one.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { payoutWorkflowId, type PayoutInput } from '../../workflows/payout/messages';
import type { payoutWorkflow } from '../../workflows/payout/payout-workflow';
import { payoutStartAttributes } from '../../workflows/payout/search-attributes';

/** 'exists' when a workflow with this payout's id was already started (running or closed). */
export async function startPayoutWorkflow(client: Client, input: PayoutInput, taskQueue: string): Promise<'started' | 'exists'> {
  try {
    await client.workflow.start<typeof payoutWorkflow>('payoutWorkflow', {
      workflowId: payoutWorkflowId(input.externalId),
      taskQueue,
      args: [input],
      // A closed payout keeps its id for the namespace's retention; past that the provider's external_id check holds.
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      memo: { requestHash: input.requestHash },
      typedSearchAttributes: payoutStartAttributes(input),
    });
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'exists';
    throw error;
  }
}
