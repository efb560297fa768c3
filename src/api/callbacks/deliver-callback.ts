/**
 * The last step: the hint signalled to the operation's workflow, found by our id or else by the provider's id
 * (which the workflow indexed, ProviderTransactionId, once the provider answered it). 503 when Temporal cannot
 * take it, so the provider retries and no callback is lost.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError, type SignalDefinition } from '@temporalio/common';
import type { Logger } from '../../logging/logger';
import { ProviderTransactionId } from '../../temporal/search-attributes';
import { linkToWorkflowTrace } from '../../telemetry/trace-links';
import { isTemporalUnavailable, temporalUnavailable } from '../temporal-calls';
import type { CallbackTarget } from './callback-route';

const SIGNAL_DEADLINE_MS = 5_000;
/** Waits before each visibility lookup of a provider id: well within the provider's webhook timeout. */
const INDEX_LOOKUP_PAUSES_MS = [0, 250, 750, 1_500];

export type Delivery = 'signalled' | 'closed' | 'absent';

/** Our id first; then the provider's id among `flows`. 'closed' when the workflow ended (late callbacks change nothing), 'absent' when none exists. */
export async function deliverCallback<H>(
  client: Client,
  target: CallbackTarget<H>,
  hint: H,
  flows: readonly string[],
  log: Logger,
): Promise<Delivery> {
  let delivery: Delivery =
    target.workflowId === undefined
      ? 'absent'
      : await signalWorkflow(client, target.workflowId, target.signal, hint, log);
  if (delivery === 'absent' && target.providerId !== undefined) {
    const found = await workflowOfProviderId(client, target.providerId, flows);
    if (found !== undefined) delivery = await signalWorkflow(client, found, target.signal, hint, log);
  }
  return delivery;
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
