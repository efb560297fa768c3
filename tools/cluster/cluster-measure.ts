/**
 * `CLUSTER_MEASURE=1 npm run cluster`: what a cluster on this machine carries, for docs/scaling.md. In
 * turn, on a fresh cluster: the bench's yardstick (bare payouts, tools/bench/bare-payout-workflow.ts), a batch of payouts
 * through the engine, PIX charges paid, card payments through their checkout. For each phase: its rate,
 * the CPU each process used per item, what the Temporal server's store did per item (its own metrics, as
 * the bench reads them), and the state transitions of sampled workflows (what Temporal counts and bills
 * an execution by). The machine's load average is recorded with every phase: it is shared.
 */
import os from 'node:os';
import type { Client, ConnectionLike } from '@temporalio/client';
import { Client as PgClient } from 'pg';
import { z } from 'zod';
import { batchAcceptedSchema, batchSummarySchema } from '../../src/api/batches/schemas';
import { measureBarePayouts } from '../bench/bare-run';
import { BARE_TASK_QUEUE, startBarePhase } from '../bench/bare-phase';
import { benchItems } from '../bench/engine-run';
import { percentile } from '../bench/percentile';
import {
  metricsText,
  persistencePerWorkflow,
  readPersistenceCounters,
  type PersistencePerWorkflow,
} from '../bench/server-persistence';
import { cpuSeconds, treeCpuSeconds } from '../stack/child-services';
import { connectClient } from '../../src/temporal/connection';
import { payoutTiming } from '../../src/payouts/payout-input';
import { pollUntil } from '../../src/util/poll';
import { batchWorkflowId } from '../../src/lifecycles/batch-client';
import { cardPaymentWorkflowId } from '../../src/lifecycles/card-payment-client';
import { chargeWorkflowId } from '../../src/lifecycles/charge-client';
import { payoutWorkflowId } from '../../src/lifecycles/payout-client';
import type { Cluster } from './cluster-stack';
import { paidCardPayment, paidCharge } from './lifecycles';
import { StackClient } from './stack-client';
import { mapConcurrently } from '../../src/util/concurrency';

export interface MeasureSizes {
  payouts: number;
  charges: number;
  cardPayments: number;
  /** Bare payouts, the bench's yardstick (0: not measured). */
  barePayouts: number;
}

export interface PhaseFigures {
  items: number;
  seconds: number;
  perSecond: number;
  /** The 1-minute load average when the phase began and ended (2 cores: above 2, something waited). */
  load: [number, number];
  /** CPU milliseconds per item, by process (`postgres`: the postmaster and every backend). */
  cpuMsPerItem: Record<string, number | null>;
  /** What the Temporal server's store did per item. */
  store: PersistencePerWorkflow;
  /** Per item, by database of the cluster's PostgreSQL: transactions (reads included: each query outside a transaction is one) and rows written (pg_stat_database). */
  database: Record<string, { transactions: number; rowsWritten: number }>;
  /** Requests the Temporal frontend answered per item (the engine's namespace), all and the most frequent: what its per-instance rate limit (`frontend.namespaceRPS`, 2,400) is counted in. */
  frontendRequests: { total: number; byOperation: Record<string, number> };
  /** State transitions of sampled workflows of the phase: median and most. */
  stateTransitions?: { median: number; max: number; sampled: number };
}

export interface ClusterMeasurement {
  machine: { cpus: number; cpuModel: string; memoryGb: number };
  cluster: { temporal: string; shards: number; workers: number };
  bare?: PhaseFigures;
  payout: PhaseFigures & { latencyMs: { p50: number; p99: number } };
  charge: PhaseFigures;
  cardPayment: PhaseFigures;
}

const SAMPLED = 20;
const load = (): number => Number(os.loadavg()[0]?.toFixed(2));
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** Every nth, so that a sample spans the whole phase. */
const spread = <T>(items: readonly T[], count: number): T[] =>
  items.filter((_, index) => index % Math.max(1, Math.floor(items.length / count)) === 0).slice(0, count);

async function stateTransitions(
  connection: ConnectionLike,
  namespace: string,
  workflowIds: readonly string[],
): Promise<PhaseFigures['stateTransitions']> {
  const counts: number[] = [];
  for (const workflowId of spread(workflowIds, SAMPLED)) {
    const described = await connection.workflowService.describeWorkflowExecution({
      namespace,
      execution: { workflowId },
    });
    counts.push(Number(described.workflowExecutionInfo?.stateTransitionCount ?? 0));
  }
  counts.sort((a, b) => a - b);
  return { median: percentile(counts, 50), max: counts.at(-1) ?? 0, sampled: counts.length };
}

const DATABASES = ['temporal', 'temporal_visibility', 'batches'];
const databaseStatsSchema = z.array(
  z.object({ datname: z.string(), commits: z.coerce.number(), rows: z.coerce.number() }),
);

/** PostgreSQL's own counters of the cluster's databases (flushed by each backend at most a second late). */
async function databaseCounters(cluster: Cluster): Promise<Map<string, { commits: number; rows: number }>> {
  const client = new PgClient({ connectionString: cluster.databaseUrl('postgres') });
  await client.connect();
  try {
    const result = await client.query(
      'SELECT datname, xact_commit AS commits, tup_inserted + tup_updated + tup_deleted AS rows FROM pg_stat_database WHERE datname = ANY($1)',
      [DATABASES],
    );
    return new Map(
      databaseStatsSchema.parse(result.rows).map(({ datname, commits, rows }) => [datname, { commits, rows }]),
    );
  } finally {
    await client.end();
  }
}

const FRONTEND_REQUESTS = /^service_requests\{([^}]*)\}\s+(\S+)$/;

/** The frontend's request counters for the namespace, by operation (the server's Prometheus text). */
async function frontendRequests(metricsUrl: string, namespace: string): Promise<Map<string, number>> {
  const text = await metricsText(metricsUrl);
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const [, labels = '', value] = FRONTEND_REQUESTS.exec(line.trim()) ?? [];
    if (!value || !labels.includes('service_name="frontend"') || !labels.includes(`namespace="${namespace}"`)) continue;
    const operation = /operation="([^"]*)"/.exec(labels)?.[1] ?? 'unknown';
    counts.set(operation, (counts.get(operation) ?? 0) + Number(value));
  }
  return counts;
}

function requestsPerItem(
  before: Map<string, number>,
  after: Map<string, number>,
  items: number,
): PhaseFigures['frontendRequests'] {
  const growth = [...after]
    .map(([operation, count]) => [operation, (count - (before.get(operation) ?? 0)) / items] as const)
    .filter(([, count]) => count > 0);
  growth.sort(([, a], [, b]) => b - a);
  return {
    total: round(
      growth.reduce((sum, [, count]) => sum + count, 0),
      2,
    ),
    byOperation: Object.fromEntries(growth.slice(0, 6).map(([operation, count]) => [operation, round(count, 2)])),
  };
}

/**
 * Measures one phase: its time, the CPU of every part (and of `extraPids`), the server's store counters
 * and PostgreSQL's, around `work`, which answers how many items it did.
 */
export async function phase(
  cluster: Cluster,
  work: () => Promise<number>,
  extraPids: Record<string, number | undefined> = {},
): Promise<Omit<PhaseFigures, 'stateTransitions'>> {
  const pids = { ...cluster.pids(), ...extraPids };
  const cpu = (pid: number | undefined, tree: boolean) =>
    pid === undefined ? undefined : tree ? treeCpuSeconds(pid) : cpuSeconds(pid);
  const cpuBefore = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, cpu(pid, name === 'postgres')]),
  );
  const storeBefore = await readPersistenceCounters(cluster.serverMetricsUrl);
  const databaseBefore = await databaseCounters(cluster);
  const requestsBefore = await frontendRequests(cluster.serverMetricsUrl, cluster.config.TEMPORAL_NAMESPACE);
  const loadBefore = load();
  const started = performance.now();
  const items = await work();
  const seconds = (performance.now() - started) / 1_000;
  const storeAfter = await readPersistenceCounters(cluster.serverMetricsUrl);
  const databaseAfter = await databaseCounters(cluster);
  const requestsAfter = await frontendRequests(cluster.serverMetricsUrl, cluster.config.TEMPORAL_NAMESPACE);
  const database = Object.fromEntries(
    DATABASES.map((name) => {
      const before = databaseBefore.get(name) ?? { commits: 0, rows: 0 };
      const after = databaseAfter.get(name) ?? before;
      return [
        name,
        {
          transactions: round((after.commits - before.commits) / items),
          rowsWritten: round((after.rows - before.rows) / items),
        },
      ];
    }),
  );
  const cpuMsPerItem = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => {
      const before = cpuBefore[name];
      const after = cpu(pid, name === 'postgres');
      // A part restarted meanwhile has a new pid: its CPU cannot be compared.
      const restarted = name in extraPids ? false : cluster.pids()[name] !== pid;
      return [
        name,
        before === undefined || after === undefined || restarted ? null : round(((after - before) * 1_000) / items),
      ];
    }),
  );
  return {
    items,
    seconds: round(seconds),
    perSecond: round(items / seconds),
    load: [loadBefore, load()],
    cpuMsPerItem,
    store: persistencePerWorkflow(storeBefore, storeAfter, items),
    database,
    frontendRequests: requestsPerItem(requestsBefore, requestsAfter, items),
  };
}

/** Lifecycles of one kind taken to paid, `concurrency` at a time, as a phase; with what their workflows cost the server. */
async function paidPhase(
  cluster: Cluster,
  connection: ConnectionLike,
  ids: readonly string[],
  concurrency: number,
  pay: (externalId: string) => Promise<unknown>,
  workflowId: (externalId: string) => string,
): Promise<PhaseFigures> {
  const figures = await phase(cluster, async () => (await mapConcurrently(ids, concurrency, pay)).length);
  const namespace = cluster.config.TEMPORAL_NAMESPACE;
  return { ...figures, stateTransitions: await stateTransitions(connection, namespace, ids.map(workflowId)) };
}

/** One batch of `payouts` through the engine, as a phase: its rate, costs, and the latency of 200 of its payouts from the batch's acceptance. */
export async function batchPayoutPhase(
  cluster: Cluster,
  client: StackClient,
  connection: ConnectionLike,
  batchId: string,
  payouts: number,
): Promise<ClusterMeasurement['payout']> {
  const namespace = cluster.config.TEMPORAL_NAMESPACE;
  const items = benchItems(payouts, batchId);
  const accepted = Date.now();
  const figures = await phase(cluster, async () => {
    await client.engine('POST', '/v1/payout-batches', batchAcceptedSchema, { batchId, items });
    await pollUntil(
      async () =>
        (await client.engine('GET', `/v1/payout-batches/${batchId}`, batchSummarySchema)).done ? true : undefined,
      { timeoutMs: 3_600_000, intervalMs: 500, description: `batch ${batchId} to finish` },
    );
    return items.length;
  });
  const payoutIds = items.map((item) => payoutWorkflowId(item.externalId));
  const latencies: number[] = [];
  for (const workflowId of spread(payoutIds, 200)) {
    const described = await connection.workflowService.describeWorkflowExecution({
      namespace,
      execution: { workflowId },
    });
    const close = described.workflowExecutionInfo?.closeTime;
    if (close) latencies.push(Number(close.seconds) * 1_000 + Math.floor((close.nanos ?? 0) / 1e6) - accepted);
  }
  latencies.sort((a, b) => a - b);
  return {
    ...figures,
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    stateTransitions: await stateTransitions(connection, namespace, payoutIds),
  };
}

/** The machine and the cluster a measurement ran on. */
export async function measuredSetup(
  cluster: Cluster,
  connection: ConnectionLike,
): Promise<Pick<ClusterMeasurement, 'machine' | 'cluster'>> {
  const info = await connection.workflowService.getClusterInfo({});
  return {
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    },
    cluster: {
      temporal: info.serverVersion ?? 'unknown',
      shards: info.historyShardCount ?? 0,
      workers: cluster.parts.workers.length,
    },
  };
}

/**
 * A run over the cluster: the engine's API, and one Temporal client whose connection also reads the server's own
 * services (cluster info, visibility counts), closed when `work` ends.
 */
export async function overCluster<T>(
  cluster: Cluster,
  work: (talk: { client: StackClient; temporal: Client; connection: ConnectionLike }) => Promise<T>,
): Promise<T> {
  const temporal = await connectClient(cluster.config);
  try {
    return await work({
      client: StackClient.of(cluster),
      temporal: temporal.client,
      connection: temporal.client.connection,
    });
  } finally {
    await temporal.close();
  }
}

export function measureCluster(
  cluster: Cluster,
  sizes: MeasureSizes,
  log: (line: string) => void,
): Promise<ClusterMeasurement> {
  return overCluster(cluster, async ({ client, temporal, connection }) => {
    const run = Date.now().toString(36);

    let bare: PhaseFigures | undefined;
    if (sizes.barePayouts > 0) {
      log(`measure: ${sizes.barePayouts} bare payouts`);
      const barePhase = await startBarePhase(cluster.engineEnv);
      try {
        bare = await phase(
          cluster,
          async () =>
            (
              await measureBarePayouts(temporal, {
                taskQueue: BARE_TASK_QUEUE,
                payouts: sizes.barePayouts,
                window: cluster.config.BATCH_WINDOW,
                timing: payoutTiming(cluster.config),
                settled: barePhase.settled,
                timeoutMs: 3_600_000,
              })
            ).payouts,
          // The yardstick's starts run in this process (the engine's, in its workers): its CPU counts.
          {
            'bench-worker': barePhase.worker.pid,
            'bench-signaller': barePhase.signaller.pid,
            'bench-client': process.pid,
          },
        );
      } finally {
        await barePhase.stop();
      }
    }

    log(`measure: ${sizes.payouts} payouts in one batch`);
    const payout = await batchPayoutPhase(cluster, client, connection, `measure-${run}`, sizes.payouts);
    log(`measure: ${JSON.stringify({ batch: batchWorkflowId(`measure-${run}`), perSecond: payout.perSecond })}`);

    log(`measure: ${sizes.charges} PIX charges, paid`);
    const chargeIds = Array.from({ length: sizes.charges }, (_, index) => `m${run}c${index}`);
    const payCharge = (id: string) => paidCharge(client, id);
    const charge = await paidPhase(cluster, connection, chargeIds, 20, payCharge, chargeWorkflowId);

    log(`measure: ${sizes.cardPayments} card payments through their checkout`);
    const cardIds = Array.from({ length: sizes.cardPayments }, (_, index) => `m${run}k${index}`);
    const payCard = (id: string) => paidCardPayment(client, id);
    const cardPayment = await paidPhase(cluster, connection, cardIds, 10, payCard, cardPaymentWorkflowId);

    return {
      ...(await measuredSetup(cluster, connection)),
      ...(bare ? { bare } : {}),
      payout,
      charge,
      cardPayment,
    };
  });
}
