/**
 * How the API reads one lifecycle's workflow: a closed one from its result (no worker needed), a running
 * one from its status query, and when no worker answers that query in time (or at all: a workflow whose
 * first task has not run can refuse queries) from what the visibility index knows, as `source: 'index'`.
 */
import type { Client, QueryDefinition, WorkflowExecutionDescription, WorkflowHandle } from '@temporalio/client';
import { WorkflowNotFoundError, type Workflow, type WorkflowResultType } from '@temporalio/common';
import { ApiError } from './errors';
import { withinDeadline } from './temporal-calls';

/**
 * `running`: the workflow had not closed when it was read; `executionStatus`: Temporal's name for how it
 * stands (RUNNING, COMPLETED, TERMINATED, ...) and `runId` the run read, as describe said.
 */
export type WorkflowReading<V, I> = ({ source: 'workflow'; view: V } | { source: 'index'; view: I }) & {
  running: boolean;
  executionStatus: string;
  runId: string;
};

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
  const execution = {
    running: description.status.name === 'RUNNING',
    executionStatus: description.status.name,
    runId: description.runId,
  };
  if (description.status.name === 'COMPLETED')
    return { source: 'workflow', view: await call(() => handle.result()), ...execution };
  try {
    return {
      source: 'workflow',
      view: await client.withDeadline(Date.now() + options.deadlineMs, () => handle.query(options.query)),
      ...execution,
    };
  } catch {
    // No worker answered: the index still knows what the start request and the transitions indexed.
  }
  return { source: 'index', view: options.fromIndex(description), ...execution };
}

/** `fromIndex` of a lifecycle whose index cannot stand in for its view: no worker answered, retry later. */
export function workerUnavailable(what: string): () => never {
  return () => {
    throw new ApiError(503, 'WORKER_UNAVAILABLE', `No worker answered for ${what}; retry later`);
  };
}
