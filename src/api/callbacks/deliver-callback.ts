/**
 * The last step: the hint handed to the operation's workflow, found by our id or else by the provider's id
 * (which the workflow indexed, ProviderTransactionId, once the provider answered it). Where the route has an update
 * (payouts), the hint goes as that update first: its workflow task is written once, when it completes, where a signal
 * is persisted on arrival and dispatched after. An update not accepted within `updateDeadlineMs` (no worker polling,
 * a payout of before version 4 without the handler, a closed or absent workflow) is followed by the signal, which
 * decides the answer. Both may then reach the workflow: harmless, a callback is a hint the check confirms. 503 when
 * Temporal cannot take it, so the provider retries and no callback is lost.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError, type SignalDefinition, type UpdateDefinition } from '@temporalio/common';
import { WorkflowUpdateStage } from '@temporalio/client';
import type { Logger } from '../../logging/logger';
import { ProviderTransactionId } from '../../temporal/search-attributes';
import { linkToWorkflowTrace } from '../../telemetry/trace-links';
import { isTemporalUnavailable, temporalUnavailable } from '../temporal-calls';
import type { CallbackTarget } from './callback-route';

const SIGNAL_DEADLINE_MS = 5_000;
/** Waits before each visibility lookup of a provider id: well within the provider's webhook timeout. */
const INDEX_LOOKUP_PAUSES_MS = [0, 250, 750, 1_500];

/** 'signalled' when the workflow took the hint (as the update or the signal). */
export type Delivery = 'signalled' | 'closed' | 'absent';

/** Our id first; then the provider's id among `flows`. 'closed' when the workflow ended (late callbacks change nothing), 'absent' when none exists. */
export async function deliverCallback<H>(
  client: Client,
  target: CallbackTarget<H>,
  hint: H,
  flows: readonly string[],
  log: Logger,
  updateDeadlineMs: number,
): Promise<Delivery> {
  const deliver = async (workflowId: string): Promise<Delivery> =>
    target.update && (await updateWorkflow(client, workflowId, target.update, hint, updateDeadlineMs, log))
      ? 'signalled'
      : signalWorkflow(client, workflowId, target.signal, hint, log);
  let delivery: Delivery = target.workflowId === undefined ? 'absent' : await deliver(target.workflowId);
  if (delivery === 'absent' && target.providerId !== undefined) {
    const found = await workflowOfProviderId(client, target.providerId, flows);
    if (found !== undefined) delivery = await deliver(found);
  }
  return delivery;
}

/** Whether the workflow accepted the update in time; any failure leaves the answer to the signal that follows. */
async function updateWorkflow<H>(
  client: Client,
  workflowId: string,
  update: UpdateDefinition<void, [H]>,
  hint: H,
  deadlineMs: number,
  log: Logger,
): Promise<boolean> {
  try {
    await client.withDeadline(Date.now() + deadlineMs, async () => {
      const handle = await client.workflow
        .getHandle(workflowId)
        .startUpdate(update, { args: [hint], waitForStage: WorkflowUpdateStage.ACCEPTED });
      // A refusal (a payout without the handler) comes back as the outcome, not as an error: result() throws it.
      // The handler returns at once, so the outcome rides the acceptance and result() asks nothing more.
      await handle.result();
    });
  } catch (error) {
    log.info('callback.update_not_accepted', { workflowId, error: error instanceof Error ? error.name : 'unknown' });
    return false;
  }
  log.info('callback.updated', { workflowId });
  await linkToWorkflowTrace(client, workflowId);
  return true;
}

async function signalWorkflow<H>(
  client: Client,
  workflowId: string,
  signal: SignalDefinition<[H]>,
  hint: H,
  log: Logger,
): Promise<Delivery> {
  try {
    // Within the provider's own webhook timeout: better a quick 503 (it retries) than a hung request.
    await client.withDeadline(Date.now() + SIGNAL_DEADLINE_MS, () =>
      client.workflow.getHandle(workflowId).signal(signal, hint),
    );
    log.info('callback.signalled', { workflowId });
    await linkToWorkflowTrace(client, workflowId);
    return 'signalled';
  } catch (error) {
    if (isTemporalUnavailable(error)) {
      log.error('callback.temporal_unavailable', { workflowId });
      throw temporalUnavailable();
    }
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
  if (!(await workflowExists(client, workflowId))) return 'absent';
  log.info('callback.after_close', { workflowId });
  return 'closed';
}

/** Whether the workflow ever existed (a closed one refuses signals as if it did not). */
async function workflowExists(client: Client, workflowId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).describe();
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    if (isTemporalUnavailable(error)) throw temporalUnavailable();
    throw error;
  }
}

/** The workflow (running or closed) indexed under the provider's id among `flows`, if any; none found means unmatched, and the workflow's own polling still finds the outcome. */
async function workflowOfProviderId(
  client: Client,
  providerId: string,
  flows: readonly string[],
): Promise<string | undefined> {
  // Only a plain token goes into a visibility query: nothing to escape, nothing to inject.
  const plain = /^[\w.:-]{1,128}$/;
  if (!plain.test(providerId) || !flows.every((flow) => plain.test(flow))) return undefined;
  const query = `${ProviderTransactionId.name} = '${providerId}' AND PayoutFlow IN (${flows.map((flow) => `'${flow}'`).join(', ')})`;
  // Visibility trails the workflow by a moment: a callback right after the provider's answer looks again briefly.
  for (const pauseMs of INDEX_LOOKUP_PAUSES_MS) {
    if (pauseMs > 0) await sleep(pauseMs);
    try {
      for await (const execution of client.workflow.list({ query, pageSize: 1 })) return execution.workflowId;
    } catch (error) {
      if (isTemporalUnavailable(error)) throw temporalUnavailable();
      throw error;
    }
  }
  return undefined;
}
