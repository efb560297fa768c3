/**
 * Starting a payout workflow, the one way both the API (single payouts) and the batch activity do it:
 * the business id as workflow id, never reused, the request's hash in the memo so that a repeated
 * request can be told from a conflicting one, and the search attributes set by the start request.
 */
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdReusePolicy,
  type SearchAttributePair,
} from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { payoutFlow, payoutWorkflowId, type PayoutWorkflow } from '../contracts/payout';
import { PAYOUT_WORKFLOW_VERSION, type PayoutInput, type PayoutTiming } from '../payouts/payout-input';
import type { PayoutRequest } from '../payouts/payout-request';
import { payoutRequestHash } from '../payouts/request-hash';
import { payoutDetails, payoutSummary } from '../payouts/summary';
import { AmountCents, BatchId, Flow, PayoutStatus } from '../temporal/search-attributes';
import { payoutStarts } from '../metrics/engine-metrics';
import { lifecycleHandle } from './lifecycle-client';

/** The workflow's contract (ids, states, signals, queries, updates, view): code outside workflows/ takes it from here. */
export * from '../contracts/payout';

/** A payout's workflow by its externalId. */
export const payoutHandle = lifecycleHandle<PayoutWorkflow>(payoutWorkflowId);

export function payoutInput(request: PayoutRequest, timing: PayoutTiming, batchId?: string): PayoutInput {
  return {
    ...request,
    ...(batchId ? { batchId } : {}),
    requestHash: payoutRequestHash(request),
    timing,
    workflowVersion: PAYOUT_WORKFLOW_VERSION,
  };
}

/**
 * How a payout is indexed in visibility, set in the start request: a payout is findable (PayoutStatus =
 * 'RECEIVED', its flow, amount and batch) from the moment it exists, even before a worker has run it,
 * and its first workflow task writes nothing to visibility.
 */
export function payoutStartAttributes(
  input: Pick<PayoutInput, 'amountCents' | 'batchId' | 'method'>,
): SearchAttributePair[] {
  return [
    { key: PayoutStatus, value: 'RECEIVED' },
    { key: Flow, value: payoutFlow(input) },
    { key: AmountCents, value: input.amountCents },
    ...(input.batchId ? [{ key: BatchId, value: input.batchId }] : []),
  ];
}

/**
 * The start request of a payout, everything but the workflow type: the bench's yardstick (a bare payout,
 * tools/bench/bare-payout-workflow.ts) starts its workflows with exactly this, so that the two compare.
 */
export function payoutStartOptions(input: PayoutInput, taskQueue: string, options: { rerun?: boolean } = {}) {
  return {
    workflowId: payoutWorkflowId(input.externalId),
    taskQueue,
    args: [input] as [PayoutInput],
    // A closed payout keeps its id for the namespace's retention; past that the provider's external_id check holds.
    workflowIdReusePolicy: options.rerun
      ? WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY
      : WorkflowIdReusePolicy.REJECT_DUPLICATE,
    memo: { requestHash: input.requestHash },
    typedSearchAttributes: payoutStartAttributes(input),
    staticSummary: payoutSummary(input),
    staticDetails: payoutDetails(input),
  };
}

/**
 * 'exists' when a workflow with this payout's id was already started (running or closed). `rerun`: a
 * new run of a payout whose last run was terminated (or failed, timed out): its submission intent makes
 * the new run reconcile instead of sending again. `eager`: the server hands the first workflow task back in the
 * start's answer, to the worker sharing `client`'s NativeConnection when it has a free slot (else it is dispatched as
 * usual): no matching round trip, and the task's start written with the workflow's creation.
 */
export async function startPayoutWorkflow(
  client: Client,
  input: PayoutInput,
  taskQueue: string,
  options: { rerun?: boolean; eager?: boolean } = {},
): Promise<'started' | 'exists'> {
  try {
    const handle = await client.workflow.start<PayoutWorkflow>('payoutWorkflow', {
      ...payoutStartOptions(input, taskQueue, options),
      ...(options.eager ? { requestEagerStart: true } : {}),
    });
    payoutStarts.inc({ first_task: handle.eagerlyStarted ? 'eager' : 'dispatched' });
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'exists';
    throw error;
  }
}
