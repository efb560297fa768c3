/**
 * What the Temporal dev server's store did for each workflow of a phase, from its Prometheus counters
 * (`--metrics-port`): how many persistence operations and how long they took, summed. The dev server
 * runs SQLite on one connection, so when an operation's time per workflow grows while their number
 * does not, the time is spent waiting for that connection: the figure that shows where a phase's
 * limit is, which the processes' CPU seconds cannot.
 */

/** A figure for each of the server's persistence operations, by the operation's name. */
export type ByOperation = Record<string, number>;

/** Cumulative counters by operation, as the server exposes them. */
export interface PersistenceCounters {
  requests: ByOperation;
  seconds: ByOperation;
  visibilityRequests: ByOperation;
  visibilitySeconds: ByOperation;
}

export interface PersistencePerWorkflow {
  /** Operations on the execution store (executions, history, tasks, task queues, namespaces). */
  operations: number;
  /** Their summed duration, waits for the connection included. */
  operationMs: number;
  /** Writes of the workflow's state: one transaction each. */
  updateWorkflowExecution: number;
  /** Writes and reads of the visibility records (search attributes). */
  visibilityOperations: number;
  visibilityMs: number;
  /** The five operations that took the most time, in ms per workflow. */
  slowest: ByOperation;
  /** How many times each of those five ran per workflow. */
  slowestCounts: ByOperation;
}

const SAMPLE =
  /^(persistence_requests|persistence_latency_sum|visibility_persistence_requests|visibility_persistence_latency_sum)\{([^}]*)\}\s+(\S+)$/;
const FIELD: Record<string, keyof PersistenceCounters> = {
  persistence_requests: 'requests',
  persistence_latency_sum: 'seconds',
  visibility_persistence_requests: 'visibilityRequests',
  visibility_persistence_latency_sum: 'visibilitySeconds',
};

/** Sums the persistence counters of a Prometheus text exposition by operation (over every other label). */
export function parsePersistenceCounters(text: string): PersistenceCounters {
  const counters: PersistenceCounters = { requests: {}, seconds: {}, visibilityRequests: {}, visibilitySeconds: {} };
  for (const line of text.split('\n')) {
    const match = SAMPLE.exec(line.trim());
    const [, metric, labels, value] = match ?? [];
    const operation = labels ? /(?:^|,)operation="([^"]*)"/.exec(labels)?.[1] : undefined;
    const field = metric ? FIELD[metric] : undefined;
    if (!field || !operation || !value) continue;
    counters[field][operation] = (counters[field][operation] ?? 0) + Number(value);
  }
  return counters;
}

/** A process's Prometheus text exposition. */
export async function metricsText(metricsUrl: string): Promise<string> {
  const answer = await fetch(metricsUrl, { signal: AbortSignal.timeout(10_000) });
  if (!answer.ok) throw new Error(`${metricsUrl} answered ${answer.status}`);
  return answer.text();
}

export async function readPersistenceCounters(metricsUrl: string): Promise<PersistenceCounters> {
  return parsePersistenceCounters(await metricsText(metricsUrl));
}

export const round = (value: number, digits: number) => Number(value.toFixed(digits));

function growth(before: ByOperation, after: ByOperation): ByOperation {
  return Object.fromEntries(
    Object.entries(after).map(([operation, value]) => [operation, value - (before[operation] ?? 0)]),
  );
}

/** Each operation's count between two readings (execution store and visibility store apart). */
export function operationsBetween(
  before: PersistenceCounters,
  after: PersistenceCounters,
): Pick<PersistenceCounters, 'requests' | 'visibilityRequests'> {
  return {
    requests: growth(before.requests, after.requests),
    visibilityRequests: growth(before.visibilityRequests, after.visibilityRequests),
  };
}

/** The figures of every operation added up. */
export const total = (values: ByOperation) => Object.values(values).reduce((sum, value) => sum + value, 0);

/** The counters' growth between two readings, per workflow of the phase between them. */
export function persistencePerWorkflow(
  before: PersistenceCounters,
  after: PersistenceCounters,
  workflows: number,
): PersistencePerWorkflow {
  const per = (value: number, digits: number) => round(value / Math.max(workflows, 1), digits);
  const requests = growth(before.requests, after.requests);
  const seconds = growth(before.seconds, after.seconds);
  const slowest = Object.entries(seconds)
    .sort(([, a], [, b]) => b - a)
    .slice(0, 5);
  return {
    operations: per(total(requests), 1),
    operationMs: per(total(seconds) * 1_000, 1),
    updateWorkflowExecution: per(requests.UpdateWorkflowExecution ?? 0, 2),
    visibilityOperations: per(total(growth(before.visibilityRequests, after.visibilityRequests)), 2),
    visibilityMs: per(total(growth(before.visibilitySeconds, after.visibilitySeconds)) * 1_000, 1),
    slowest: Object.fromEntries(slowest.map(([operation, value]) => [operation, per(value * 1_000, 2)])),
    slowestCounts: Object.fromEntries(slowest.map(([operation]) => [operation, per(requests[operation] ?? 0, 2)])),
  };
}
