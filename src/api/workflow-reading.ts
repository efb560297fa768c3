/**
 * How the API reads one lifecycle's workflow: a closed one from its result (no worker needed), a running
 * one from its status query, and when no worker answers that query in time (or at all: a workflow whose
 * first task has not run can refuse queries) from what the visibility index knows, as `source: 'index'`.
 */
import type { Client, QueryDefinition, WorkflowExecutionDescription, WorkflowHandle } from '@temporalio/client';
import { WorkflowNotFoundError, type Workflow, type WorkflowResultType } from '@temporalio/common';
import type { ApiError } from './errors';
import { withinDeadline } from './temporal-calls';

export type WorkflowReading<V, I> = { source: 'workflow'; view: V } | { source: 'index'; view: I };

export interface ReadOptions<V, I> {
  deadlineMs: number;
  query: QueryDefinition<V>;
  notFound: () => ApiError;
  /** The answer without a worker; may throw when the index cannot say enough. */
  fromIndex: (description: WorkflowExecutionDescription) => I;
}

/** The workflow's status query answers what its result holds: the same view, before and after it closes. */
export async function readWorkflow<W extends Workflow, I>(
  client: Client,
  handle: WorkflowHandle<W>,
  options: ReadOptions<WorkflowResultType<W>, I>,
): Promise<WorkflowReading<WorkflowResultType<W>, I>> {
  const call = <T>(request: () => Promise<T>) => withinDeadline(client, options.deadlineMs, request);
  const description = await call(() => handle.describe()).catch((error: unknown) => {
    throw error instanceof WorkflowNotFoundError ? options.notFound() : error;
  });
  if (description.status.name === 'COMPLETED') return { source: 'workflow', view: await call(() => handle.result()) };
  try {
    return { source: 'workflow', view: await client.withDeadline(Date.now() + options.deadlineMs, () => handle.query(options.query)) };
  } catch {
    // No worker answered: the index still knows what the start request and the transitions indexed.
  }
  return { source: 'index', view: options.fromIndex(description) };
}
