/**
 * The infraction lifecycle's client, as the MED sync uses it: which infraction workflows run and in
 * which state (from visibility), and the provider's record brought to an infraction's workflow by
 * signal-with-start (started, with its search attributes and summary, when it does not run yet).
 */
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdReusePolicy,
  type SearchAttributePair,
} from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { isInfractionId } from '../infractions/infraction-id';
import type { InfractionRecord } from '../infractions/infraction-record';
import type { UnreadableInfraction } from '../infractions/unreadable-record';
import { formatCentavos } from '../money/centavos';
import { Flow, InfractionDueAt, InfractionStatus } from '../temporal/search-attributes';
import { lifecycleHandle, startAttributes } from './lifecycle-client';
import {
  INFRACTION_FLOW,
  infractionRecordSignal,
  infractionWorkflowId,
  type InfractionState,
  type InfractionWorkflow,
} from '../contracts/infraction';

/** The workflow's contract (ids, states, signals, queries, updates, view): code outside workflows/ takes it from here. */
export * from '../contracts/infraction';

/** An infraction's workflow by its infractionId. */
export const infractionHandle = lifecycleHandle<InfractionWorkflow>(infractionWorkflowId);

/** Its flow, state, amount and due time (no payer data). */
function infractionStartAttributes(record: InfractionRecord): SearchAttributePair[] {
  const dueAt = { key: InfractionDueAt, value: new Date(record.defenseDeadline) };
  return startAttributes(INFRACTION_FLOW, [InfractionStatus, 'OPEN'], record.amountCents, dueAt);
}

/**
 * The states of the running infraction workflows among these ids, by workflow id, from visibility. Only plain
 * tokens go into the query, unescaped (the record reader refuses any other id): nothing to escape, nothing to inject.
 */
export async function runningInfractionStates(
  temporal: Client,
  infractionIds: readonly string[],
): Promise<Map<string, InfractionState>> {
  const states = new Map<string, InfractionState>();
  const plain = infractionIds.filter(isInfractionId);
  if (plain.length === 0) return states;
  const ids = plain.map((id) => `'${infractionWorkflowId(id)}'`).join(', ');
  const query = `${Flow.name} = '${INFRACTION_FLOW}' AND ExecutionStatus = 'Running' AND WorkflowId IN (${ids})`;
  for await (const execution of temporal.workflow.list({ query })) {
    const state = execution.typedSearchAttributes.get(InfractionStatus);
    if (state) states.set(execution.workflowId, state as InfractionState);
  }
  return states;
}

/** Where an infraction workflow is started, and the DUE_SOON lead time it keeps (INFRACTION_DUE_SOON_LEAD_MS). */
export interface InfractionStart {
  taskQueue: string;
  dueSoonLeadMs: number;
}

/** The record signalled to its infraction's workflow, started if it does not run; 'closed': it ended (its outcome is final). */
export async function signalInfractionRecord(
  temporal: Client,
  record: InfractionRecord,
  { taskQueue, dueSoonLeadMs }: InfractionStart,
): Promise<'signalled' | 'closed'> {
  try {
    await temporal.workflow.signalWithStart<InfractionWorkflow, [InfractionRecord]>('infractionWorkflow', {
      workflowId: infractionWorkflowId(record.infractionId),
      taskQueue,
      args: [{ record, dueSoonLeadMs }],
      signal: infractionRecordSignal,
      signalArgs: [record],
      // A closed infraction is never started again: its outcome is final.
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: infractionStartAttributes(record),
      staticSummary: `MED infraction R$ ${formatCentavos(record.amountCents)} on ${record.transactionId}: ${record.reason.slice(0, 80)}`,
      staticDetails: `due ${record.defenseDeadline}`,
    });
    return 'signalled';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'closed';
    throw error;
  }
}

/**
 * An infraction whose record the engine cannot read, started in NEEDS_REVIEW (its `problem` names the record's
 * fields); 'exists' when its workflow runs or ran (it keeps what it knew).
 */
export async function startInfractionReview(
  temporal: Client,
  unreadable: UnreadableInfraction & { infractionId: string },
  { taskQueue, dueSoonLeadMs }: InfractionStart,
): Promise<'started' | 'exists'> {
  try {
    await temporal.workflow.start<InfractionWorkflow>('infractionWorkflow', {
      workflowId: infractionWorkflowId(unreadable.infractionId),
      taskQueue,
      args: [{ unreadable, dueSoonLeadMs }],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [
        { key: Flow, value: INFRACTION_FLOW },
        { key: InfractionStatus, value: 'NEEDS_REVIEW' },
      ],
      staticSummary: 'MED infraction whose record the engine could not read',
      staticDetails: `missing: ${unreadable.missing.join(', ')}`,
    });
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'exists';
    throw error;
  }
}
