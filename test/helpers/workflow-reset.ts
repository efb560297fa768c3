/**
 * Resets as an operator makes them: the real Temporal CLI (`temporal workflow reset`, found as the
 * engine finds it), against the test's dev server; and what a test needs around them: the reset points
 * of a history, the new run once it has closed, and the provider's operations per business id.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { temporalCliPath } from '../../tools/temporal/binaries';
import { pollUntil } from '../../src/util/poll';
import type { EngineHarness } from './engine-harness';

export async function temporalCli(stack: EngineHarness, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    temporalCliPath(),
    [...args, '--address', stack.config.TEMPORAL_ADDRESS, '--namespace', stack.config.TEMPORAL_NAMESPACE],
    {
      timeout: 60_000,
    },
  );
  return stdout;
}

/** `--type FirstWorkflowTask|LastWorkflowTask`, or `--event-id N`: where the reset takes the workflow back to. */
export type ResetPoint = { type: 'FirstWorkflowTask' | 'LastWorkflowTask' } | { eventId: number };

export function describePoint(point: ResetPoint): string {
  return 'type' in point ? point.type : `event ${point.eventId}`;
}

/** Every WorkflowTaskCompleted event of the workflow's current run: each is a point `--event-id` can reset to. */
export async function workflowTaskCompletedEvents(stack: EngineHarness, workflowId: string): Promise<number[]> {
  const history = await stack.temporal.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .filter((event) => event.workflowTaskCompletedEventAttributes)
    .map((event) => Number(event.eventId));
}

/**
 * The WorkflowTaskCompleted events a reset can take the workflow to: every one but those of a task that
 * accepted an update, which the server may have written with its task in one batch (a speculative task)
 * and then refuses as a reset point ("this event must be at the boundary").
 */
export async function resettableWorkflowTasks(stack: EngineHarness, workflowId: string): Promise<number[]> {
  const events = (await stack.temporal.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  return events
    .filter(
      (event, i) =>
        event.workflowTaskCompletedEventAttributes && !events[i + 1]?.workflowExecutionUpdateAcceptedEventAttributes,
    )
    .map((event) => Number(event.eventId));
}

/**
 * The n-th of the workflow's own resettable tasks (its last when it has fewer): lifecycles whose histories
 * differ from one to the next (a callback before or after a poll) each get a point of their own history.
 */
export async function nthResettableTask(stack: EngineHarness, workflowId: string, n: number): Promise<ResetPoint> {
  const tasks = await resettableWorkflowTasks(stack, workflowId);
  const eventId = tasks[Math.min(n, tasks.length - 1)];
  if (eventId === undefined) throw new Error(`${workflowId} has no workflow task a reset can reach`);
  return { eventId };
}

/** Resets the workflow's current run (running or closed) with the CLI; the id of the run it replaced. */
export async function resetWorkflow(stack: EngineHarness, workflowId: string, point: ResetPoint): Promise<string> {
  const before = (await stack.temporal.client.workflow.getHandle(workflowId).describe()).runId;
  const where = 'type' in point ? ['--type', point.type] : ['--event-id', String(point.eventId)];
  await temporalCli(
    stack,
    'workflow',
    'reset',
    '--workflow-id',
    workflowId,
    ...where,
    '--reason',
    `test: reset to ${describePoint(point)}`,
  );
  return before;
}

/** Resets the workflow's current run with the CLI and waits until the run the reset made has closed; its status. */
export async function resetAndWait(
  stack: EngineHarness,
  workflowId: string,
  point: ResetPoint,
  timeoutMs = 60_000,
): Promise<string> {
  const handle = stack.temporal.client.workflow.getHandle(workflowId);
  const before = await resetWorkflow(stack, workflowId, point);
  return pollUntil(
    async () => {
      const now = await handle.describe();
      return now.runId !== before && now.status.name !== 'RUNNING' ? now.status.name : undefined;
    },
    {
      timeoutMs,
      intervalMs: 200,
      description: `the run made by resetting ${workflowId} to ${describePoint(point)} to close`,
    },
  );
}

interface OperationRow {
  product: string;
  externalId: string | null;
  details: { description?: string } | null;
}

/**
 * The provider's operations made for one payout: by external_id; an internal transfer carries none, so
 * the tests send its externalId as its description.
 */
export async function providerOperations(stack: EngineHarness, externalId: string, method: string): Promise<number> {
  if (method !== 'internal') {
    const answer = await stack.admin<{ operations: OperationRow[] }>(
      'GET',
      `/sandbox/operations?externalId=${encodeURIComponent(externalId)}`,
    );
    return answer.body.operations.length;
  }
  const answer = await stack.admin<{ operations: OperationRow[] }>(
    'GET',
    '/sandbox/operations?product=internal-transfer&limit=100000',
  );
  return answer.body.operations.filter((operation) => operation.details?.description === externalId).length;
}

async function waitForRunStatus(
  stack: EngineHarness,
  workflowId: string,
  reached: (status: string) => boolean,
  { description, timeoutMs }: { description: string; timeoutMs: number },
): Promise<void> {
  const handle = stack.temporal.client.workflow.getHandle(workflowId);
  await pollUntil(async () => (reached((await handle.describe()).status.name) ? true : undefined), {
    timeoutMs,
    intervalMs: 200,
    description: `${workflowId} ${description}`,
  });
}

/** Waits until the workflow's current run has completed (a charge closes when its refund window ends). */
export function waitForWorkflowCompleted(stack: EngineHarness, workflowId: string, timeoutMs = 30_000): Promise<void> {
  return waitForRunStatus(stack, workflowId, (status) => status === 'COMPLETED', {
    description: 'to complete',
    timeoutMs,
  });
}

/** Waits until the workflow's current run has closed, however it closed. */
export function waitForWorkflowClosed(stack: EngineHarness, workflowId: string, timeoutMs = 30_000): Promise<void> {
  return waitForRunStatus(stack, workflowId, (status) => status !== 'RUNNING', { description: 'to close', timeoutMs });
}

/** Waits until a reset has made its run: the current run is no longer `replaced`. */
export async function waitForRunReplacing(stack: EngineHarness, workflowId: string, replaced: string): Promise<void> {
  const handle = stack.temporal.client.workflow.getHandle(workflowId);
  await pollUntil(async () => ((await handle.describe()).runId !== replaced ? true : undefined), {
    timeoutMs: 30_000,
    intervalMs: 200,
    description: `the run made by resetting ${workflowId}`,
  });
}

/** Terminates the workflow's current run with the CLI, as an operator would, giving `reason`. */
export async function terminateWorkflow(stack: EngineHarness, workflowId: string, reason: string): Promise<void> {
  await temporalCli(stack, 'workflow', 'terminate', '--workflow-id', workflowId, '--reason', reason);
}
