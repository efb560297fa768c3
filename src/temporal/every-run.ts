/**
 * The history events of every run of a workflow that continues as new (a payout batch), the latest run first:
 * runs are chained by `continuedExecutionRunId`. What an operator pages through for the workflow, run by run.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

export async function eventsOfEveryRun(
  client: Client,
  workflowId: string,
): Promise<temporal.api.history.v1.IHistoryEvent[][]> {
  const runs: temporal.api.history.v1.IHistoryEvent[][] = [];
  let runId: string | undefined;
  do {
    const events = (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
    runs.push(events);
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  } while (runId);
  return runs;
}
