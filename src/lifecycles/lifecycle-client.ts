/** What every lifecycle's client does the same way: reach one of its workflows, and index a workflow it starts. */
import type { Client, Workflow, WorkflowHandle } from '@temporalio/client';
import type { defineSearchAttributeKey, SearchAttributePair } from '@temporalio/common';
import { AmountCents, Flow } from '../temporal/search-attributes';

type KeywordAttribute = ReturnType<typeof defineSearchAttributeKey<'KEYWORD'>>;

/**
 * The handle every read, signal and update of one of a lifecycle's workflows goes through, by the business id
 * the lifecycle names it with (`workflowId` makes the workflow's id of it).
 */
export function lifecycleHandle<W extends Workflow>(
  workflowId: (id: string) => string,
): (client: Client, id: string) => WorkflowHandle<W> {
  return (client, id) => client.workflow.getHandle<W>(workflowId(id));
}

/**
 * A workflow's search attributes in its start request, so that it is findable before a worker has run it: its
 * flow, its lifecycle's state attribute at its first state, its amount (never payer data), then any of its own.
 */
export function startAttributes(
  flow: string,
  [stateKey, state]: [KeywordAttribute, string],
  amountCents: number,
  ...more: SearchAttributePair[]
): SearchAttributePair[] {
  return [
    { key: Flow, value: flow },
    { key: stateKey, value: state },
    { key: AmountCents, value: amountCents },
    ...more,
  ];
}
