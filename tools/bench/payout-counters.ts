/**
 * What one payout costs the Temporal server on the production path, counted, not timed: single payouts through
 * `POST /v1/payouts` whose provider callbacks come after the payout's first workflow task has closed (the sandbox
 * settles SANDBOX_SETTLE_MS after the request, then calls back). Per payout: the persisted state transitions (the
 * server's `CreateWorkflowExecution` + `UpdateWorkflowExecution` operations, one transaction each), the visibility
 * store's writes, the Temporal Cloud actions its history bills (cloud-actions.ts), its history events and workflow
 * tasks. None of these depends on the machine's speed, so a test can hold them (test/bench/payout-counters.test.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { payoutHandle } from '../../src/lifecycles/payout-client';
import { cloudActions, type CloudActions } from './cloud-actions';
import {
  operationsBetween,
  readPersistenceCounters,
  round,
  total,
  type ByOperation,
  type PersistenceCounters,
} from './server-persistence';
import { countWorkflows, submitPayout, type PayoutPhase } from './single-payouts';

/** Issue 41's targets for a payout completed by its callback. */
export const PAYOUT_TARGETS = { transitions: 4, visibilityWrites: 2, cloudActions: 6 } as const;

/** The visibility store's write operations (the rest are the bench's own reads: counts and lists). */
const VISIBILITY_WRITES = new Set([
  'RecordWorkflowExecutionStarted',
  'RecordWorkflowExecutionClosed',
  'UpsertWorkflowExecution',
  'DeleteWorkflowExecution',
]);

export interface PayoutCounters {
  payouts: number;
  /** Per payout, the server's counters over the whole phase divided by its payouts. */
  transitions: number;
  visibilityWrites: number;
  /**
   * The same from each workflow's own count (its mutable state's stateTransitionCount, from DescribeWorkflowExecution):
   * the most any payout cost. Another workflow that runs meanwhile (a schedule's) moves the figure above, never this one.
   */
  workflowStateTransitions: number;
  /** Per payout, from each history: the most any of them cost (they cost the same unless a task timed out). */
  cloudActions: number;
  historyEvents: number;
  workflowTasks: number;
  /** One payout's actions by rule, and the store's operations per payout behind the two figures above. */
  cloudActionsByKind: Record<string, number>;
  transitionsByOperation: ByOperation;
  visibilityWritesByOperation: ByOperation;
  targets: {
    transitionsAtMost4: boolean;
    visibilityWritesAtMost2: boolean;
    cloudActionsAtMost6: boolean;
  };
}

const perPayout = (counts: ByOperation, names: (name: string) => boolean, payouts: number): ByOperation =>
  Object.fromEntries(
    Object.entries(counts)
      .filter(([name, count]) => names(name) && count > 0)
      .map(([name, count]) => [name, round(count / payouts, 2)]),
  );

const visibilityReads = (counters: PersistenceCounters) =>
  Object.entries(counters.visibilityRequests)
    .filter(([name]) => !VISIBILITY_WRITES.has(name))
    .reduce((total, [, count]) => total + count, 0);

/**
 * The server's counters with every write made so far in them. It publishes them to Prometheus on a reporting interval
 * (a reading taken at once missed the last payouts' closes), so a visibility read is made now as a sentinel: once a
 * reading shows it, the writes before it are there too.
 */
async function publishedCounters(client: Client, metricsUrl: string): Promise<PersistenceCounters> {
  const readsBefore = visibilityReads(await readPersistenceCounters(metricsUrl));
  await countWorkflows(client, `WorkflowType = 'payoutWorkflow'`);
  return pollUntil(
    async () => {
      const now = await readPersistenceCounters(metricsUrl);
      return visibilityReads(now) > readsBefore ? now : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 200, description: 'the server to publish its counters' },
  );
}

/** Every payout's workflow closed and its close written to visibility (the query reads it there), or a clear error. */
async function allClosed(client: Client, run: string, payouts: number, timeoutMs: number): Promise<void> {
  const prefix = `WorkflowId STARTS_WITH 'payout:${run}-'`;
  await pollUntil(
    async () => {
      const failed = await countWorkflows(client, `${prefix} AND PayoutStatus IN ('FAILED', 'NEEDS_REVIEW')`);
      if (failed > 0)
        throw new StopPolling(`${failed} of the counted payouts did not complete (FAILED or NEEDS_REVIEW)`);
      const closed = await countWorkflows(client, `${prefix} AND ExecutionStatus = 'Completed'`);
      return closed >= payouts ? true : undefined;
    },
    { timeoutMs, intervalMs: 250, description: `${payouts} counted payouts to complete` },
  );
}

export async function measurePayoutCounters(
  options: PayoutPhase & {
    /** The dev server's Prometheus endpoint. */
    metricsUrl: string;
    payouts: number;
  },
): Promise<PayoutCounters> {
  const { payouts } = options;
  const run = `counters-${randomUUID().slice(0, 8)}`;
  const before = await publishedCounters(options.client, options.metricsUrl);
  const externalIds = Array.from({ length: payouts }, (_, index) => `${run}-${index}`);
  // Whole-real amounts: never .13 or .14, the sandbox's failure and stall rules.
  await Promise.all(
    externalIds.map((externalId, index) =>
      submitPayout(options.engine, { externalId, amount: 10 + index, pixKey: '52998224725', keyType: 'CPF' }),
    ),
  );
  await allClosed(options.client, run, payouts, options.timeoutMs);
  const store = operationsBetween(before, await publishedCounters(options.client, options.metricsUrl));

  const costs: { events: number; tasks: number; actions: CloudActions; transitions: number }[] = [];
  for (const externalId of externalIds) {
    const handle = payoutHandle(options.client, externalId);
    const events = (await handle.fetchHistory()).events ?? [];
    const transitions = Number((await handle.describe()).raw.workflowExecutionInfo?.stateTransitionCount ?? Number.NaN);
    const tasks = events.filter(
      (event) => event.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
    ).length;
    costs.push({ events: events.length, tasks, actions: cloudActions(events), transitions });
  }
  costs.sort((a, b) => b.actions.total - a.actions.total || b.events - a.events);
  const most = (of: (cost: (typeof costs)[number]) => number) => Math.max(...costs.map(of));
  const transitionsByOperation = perPayout(
    store.requests,
    (name) => name === 'CreateWorkflowExecution' || name === 'UpdateWorkflowExecution',
    payouts,
  );
  const visibilityWritesByOperation = perPayout(
    store.visibilityRequests,
    (name) => VISIBILITY_WRITES.has(name),
    payouts,
  );
  const transitions = round(total(transitionsByOperation), 2);
  const visibilityWrites = round(total(visibilityWritesByOperation), 2);
  const actions = most((cost) => cost.actions.total);
  return {
    payouts,
    transitions,
    visibilityWrites,
    workflowStateTransitions: most((cost) => cost.transitions),
    cloudActions: actions,
    historyEvents: most((cost) => cost.events),
    workflowTasks: most((cost) => cost.tasks),
    cloudActionsByKind: costs[0]?.actions.byKind ?? {},
    transitionsByOperation,
    visibilityWritesByOperation,
    targets: {
      transitionsAtMost4: transitions <= PAYOUT_TARGETS.transitions,
      visibilityWritesAtMost2: visibilityWrites <= PAYOUT_TARGETS.visibilityWrites,
      cloudActionsAtMost6: actions <= PAYOUT_TARGETS.cloudActions,
    },
  };
}
