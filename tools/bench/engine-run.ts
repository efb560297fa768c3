/**
 * The engine end to end: one batch of N payouts through the engine API, the worker, the sandbox (settling
 * at once) and its callbacks, until every payout is COMPLETED. Latency is from the batch's acceptance to
 * each payout's close, read from Temporal's visibility.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { EngineClient } from '../../src/client';
import { eventsOfEveryRun } from '../../src/temporal/every-run';
import { pollUntil } from '../../src/util/poll';
import { percentile } from './percentile';

export interface EngineRunResult {
  batchId: string;
  payouts: number;
  acceptMs: number;
  seconds: number;
  perSecond: number;
  completed: number;
  /** From the batch's submission to each payout's COMPLETED: what the merchant waits. */
  latencyMs: { p50: number; p99: number };
  /** From each payout workflow's start to its COMPLETED: the payout itself, without the wait for the window. */
  payoutLatencyMs: { p50: number; p99: number };
  /** What a payout completed by callback cost Temporal, read from sampled histories. */
  perPayout: PayoutHistoryCost;
}

export interface PayoutHistoryCost {
  /** Payouts completed by callback among those sampled. */
  sampled: number;
  /** What a payout completed by callback costs: the median of the sample (most of them cost exactly this). */
  events: number;
  workflowTasks: number;
  /** The most one of them cost: more when a workflow task timed out on the saturated machine and ran again. */
  maxEvents: number;
  timedOutWorkflowTasks: number;
  /** The event types of one that cost the median, in order. */
  eventTypes: string[];
  /** Where a payout's time went (medians of the sample, from its history's event times): where the queue forms. */
  waitsMs: PayoutWaits;
}

export interface PayoutWaits {
  /** Its first workflow task scheduled → taken by a worker: the wait in Temporal's task queue. */
  firstTaskQueued: number;
  /** The first task taken → completed (the submission runs inside it, as a local activity). */
  firstTaskRun: number;
  /** The task the callback woke, taken → completed (the check and the settlement inside it). */
  callbackTaskRun: number;
  /** The workflow's start → its close. */
  startToClose: number;
}

const SAMPLED_HISTORIES = 20;
const CALLBACK_EVENTS = new Set(['WORKFLOW_EXECUTION_SIGNALED', 'WORKFLOW_EXECUTION_UPDATE_ACCEPTED']);

interface SampledHistory {
  types: string[];
  waits: PayoutWaits;
}

function sampledHistory(history: temporal.api.history.v1.IHistory): SampledHistory {
  const events = (history.events ?? []).map((event) => ({
    type: (temporal.api.enums.v1.EventType[event.eventType ?? 0] ?? 'UNKNOWN').replace(/^EVENT_TYPE_/, ''),
    ms: Number(event.eventTime?.seconds ?? 0) * 1_000 + Math.floor((event.eventTime?.nanos ?? 0) / 1e6),
  }));
  const at = (type: string, nth: number) => events.filter((event) => event.type === type)[nth]?.ms ?? Number.NaN;
  return {
    types: events.map((event) => event.type),
    waits: {
      firstTaskQueued: at('WORKFLOW_TASK_STARTED', 0) - at('WORKFLOW_TASK_SCHEDULED', 0),
      firstTaskRun: at('WORKFLOW_TASK_COMPLETED', 0) - at('WORKFLOW_TASK_STARTED', 0),
      callbackTaskRun: at('WORKFLOW_TASK_COMPLETED', 1) - at('WORKFLOW_TASK_STARTED', 1),
      startToClose: (events.at(-1)?.ms ?? 0) - (events[0]?.ms ?? 0),
    },
  };
}

/** Every nth id, so that the sample spans the whole run (its start, its saturated middle, its end). */
function spread<T>(items: readonly T[], count: number): T[] {
  const step = Math.max(1, Math.floor(items.length / count));
  return items.filter((_, index) => index % step === 0).slice(0, count);
}

/** Events, workflow tasks (WorkflowTaskCompleted) and waits of sampled payouts that a callback woke. */
export async function payoutHistoryCost(client: Client, workflowIds: readonly string[]): Promise<PayoutHistoryCost> {
  const histories: SampledHistory[] = [];
  for (const workflowId of spread(workflowIds, SAMPLED_HISTORIES)) {
    const sampled = sampledHistory(await client.workflow.getHandle(workflowId).fetchHistory());
    // The callback came as a signal, or (payout version 4) as an update.
    if (sampled.types.some((type) => CALLBACK_EVENTS.has(type))) histories.push(sampled);
  }
  const count = (types: string[], type: string) => types.filter((each) => each === type).length;
  histories.sort((a, b) => a.types.length - b.types.length);
  const median = histories[Math.floor((histories.length - 1) / 2)]?.types ?? [];
  const medianOf = (wait: keyof PayoutWaits) =>
    percentile(
      histories
        .map((each) => each.waits[wait])
        .filter(Number.isFinite)
        .sort((a, b) => a - b),
      50,
    );
  return {
    sampled: histories.length,
    events: median.length,
    workflowTasks: count(median, 'WORKFLOW_TASK_COMPLETED'),
    maxEvents: histories.at(-1)?.types.length ?? 0,
    timedOutWorkflowTasks: histories.reduce((sum, { types }) => sum + count(types, 'WORKFLOW_TASK_TIMED_OUT'), 0),
    eventTypes: median,
    waitsMs: {
      firstTaskQueued: medianOf('firstTaskQueued'),
      firstTaskRun: medianOf('firstTaskRun'),
      callbackTaskRun: medianOf('callbackTaskRun'),
      startToClose: medianOf('startToClose'),
    },
  };
}

/**
 * The batch workflow's own history, every run of it (continued as new ones are chained by continuedExecutionRunId):
 * what the batch itself costs Temporal beside its payouts. Read once the batch workflow has closed.
 */
export async function batchHistoryCost(
  client: Client,
  workflowId: string,
): Promise<{ runs: number; events: number; workflowTasks: number; activityTasks: number }> {
  await client.workflow.getHandle(workflowId).result();
  const runs = await eventsOfEveryRun(client, workflowId);
  const count = (has: (event: (typeof runs)[number][number]) => unknown) =>
    runs.reduce((total, events) => total + events.filter(has).length, 0);
  return {
    runs: runs.length,
    events: count(() => true),
    workflowTasks: count((event) => event.workflowTaskCompletedEventAttributes),
    activityTasks: count((event) => event.activityTaskScheduledEventAttributes),
  };
}

export function benchItems(count: number, run: string) {
  // Whole-real amounts: never .13 or .14, the sandbox's failure and stall rules.
  return Array.from({ length: count }, (_, index) => ({
    externalId: `bench-${run}-${index}`,
    amount: 10 + (index % 90),
    pixKey: '52998224725',
    keyType: 'CPF' as const,
  }));
}

/** Submits through the engine API, as a merchant would; how long the answer took. */
async function timedSubmit(api: EngineClient, body: { batchId: string; items: unknown[] }): Promise<number> {
  const started = performance.now();
  await api.submitJson(body);
  return performance.now() - started;
}

export async function measureEngine(options: {
  api: EngineClient;
  client: Client;
  payouts: number;
  timeoutMs: number;
}): Promise<EngineRunResult> {
  const batchId = `bench-${randomUUID().slice(0, 8)}`;
  const submittedAt = Date.now();
  const acceptMs = await timedSubmit(options.api, { batchId, items: benchItems(options.payouts, batchId) });
  const summary = await pollUntil(
    async () => {
      const current = await options.api.batchSummary(batchId);
      return current.done ? current : undefined;
    },
    { timeoutMs: options.timeoutMs, intervalMs: 500, description: `batch ${batchId} to finish` },
  );
  const finishedAt = Date.now();

  const latencies: number[] = [];
  const payoutLatencies: number[] = [];
  const workflowIds: string[] = [];
  for await (const execution of options.client.workflow.list({
    query: `BatchId = '${batchId}' AND PayoutFlow = 'pix-withdrawal' AND PayoutStatus = 'COMPLETED'`,
  })) {
    if (!execution.closeTime) continue;
    workflowIds.push(execution.workflowId);
    latencies.push(execution.closeTime.getTime() - submittedAt);
    payoutLatencies.push(execution.closeTime.getTime() - execution.startTime.getTime());
  }
  latencies.sort((a, b) => a - b);
  payoutLatencies.sort((a, b) => a - b);
  const seconds = (finishedAt - submittedAt) / 1_000;
  return {
    batchId,
    payouts: options.payouts,
    acceptMs,
    seconds,
    perSecond: options.payouts / seconds,
    completed: summary.counts.COMPLETED?.count ?? 0,
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    payoutLatencyMs: { p50: percentile(payoutLatencies, 50), p99: percentile(payoutLatencies, 99) },
    perPayout: await payoutHistoryCost(options.client, workflowIds),
  };
}
