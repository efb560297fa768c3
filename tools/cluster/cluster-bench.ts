/**
 * `CLUSTER_BENCH=1 npm run cluster`: what a payout costs on the production topology, against the minimal Temporal
 * payout on the same cluster in the same run (issue 41). On a fresh cluster (PostgreSQL, the Temporal server, 2
 * workers), the sandbox's callbacks spread over 2–5 s after each withdrawal, as a real provider's:
 * 1. the highest sustained rate: one batch through the engine, as fast as the cluster goes;
 * 2. the engine: single payouts through `POST /v1/payouts`, paced at 80 % of that rate (an open loop), with their
 *    latency from acceptance to final state, whole and less the provider's wait;
 * 3. the minimal payout (tools/bench/minimal-payout/: eager start, the callback as an update, local activities),
 *    paced at the same rate, on the same server, database and sandbox.
 * 4. retention: phase 2's payouts deleted through DeleteWorkflowExecution, the deletion the retention timer starts
 *    for each closed workflow (its history, mutable state and visibility row), 16 at a time.
 * For 2 to 4, the CPU of every process (PostgreSQL: the postmaster and every backend) per payout, their sum
 * without the sandbox (the provider is not ours to run), and PostgreSQL's transactions per payout.
 */
import { pollUntil } from '../../src/util/poll';
import { measurePaced, type PacedRunResult } from '../bench/paced-run';
import { startMinimalService } from '../bench/minimal-phase';
import { delayCallbacks } from '../bench/sandbox-callback-delay';
import { countWorkflows } from '../bench/single-payouts';
import { stopChild } from '../stack/child-services';
import type { Cluster } from './cluster-stack';
import {
  batchPayoutPhase,
  measuredSetup,
  overCluster,
  phase,
  type ClusterMeasurement,
  type PhaseFigures,
} from './cluster-measure';
import type { Client, ConnectionLike } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { mapConcurrently } from '../../src/util/concurrency';

export interface BenchSizes {
  /** Payouts of each paced phase. */
  payouts: number;
  /** Payouts of the batch that finds the highest sustained rate. */
  saturationPayouts: number;
  callbackDelayMs: { min: number; max: number };
  /** The paced phases' rate, as a share of the highest sustained one. */
  loadShare: number;
}

/**
 * The engine's settings for the bench: production waits (a callback 2–5 s late is awaited, not polled for), the
 * sandbox settling at once (its callback delay is the provider's time), a batch window the cluster fills before
 * the window limits it, no API rate limit, quieter logs.
 */
export const CLUSTER_BENCH_ENV = {
  SANDBOX_SETTLE_MS: '0',
  BATCH_WINDOW: '1000',
  ENGINE_RATE_LIMIT_PER_MINUTE: '1000000',
  LOG_LEVEL: 'warn',
};

const TARGET_RATIO = 0.85;
const TARGET_P99_MS = 2_000;
const PHASE_TIMEOUT_MS = 3_600_000;
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

type PhaseCost = Pick<PhaseFigures, 'seconds' | 'load' | 'store'> & {
  payouts: number;
  /** CPU ms per payout by process, and `total`: every process counted (never the sandbox). */
  vCpuMsPerPayout: Record<string, number | null> & { total: number };
  postgresTransactionsPerPayout: number;
  /** By database: Temporal's, its visibility's, the engine's (`batches`: the intent store, batches, the read model). */
  postgresByDatabase: PhaseFigures['database'];
};

type PacedCost = PhaseCost & {
  rate: number;
  /** What one vCPU carries at that cost: 1,000 ÷ total. */
  payoutsPerSecondPerVcpu: number;
};

export interface ClusterBenchReport extends Pick<ClusterMeasurement, 'machine' | 'cluster'> {
  settings: BenchSizes;
  highestSustained: { payouts: number; perSecond: number; seconds: number; load: [number, number] };
  engine: PacedCost & {
    completed: number;
    latencyMs: {
      acceptanceToFinal: PacedRunResult['latencyMs'];
      engineOwn: PacedRunResult['engineOwnMs'];
      submit: PacedRunResult['submitLatencyMs'];
      callbackToFinal: PacedRunResult['callbackToFinalMs'];
    };
  };
  minimal: PacedCost & { completed: number; eagerlyStarted: number };
  /** What a payout's deletion at the end of retention costs, per payout (rows: PostgreSQL's rows written, deletes included). */
  retentionDelete: PhaseCost & { rowsWrittenPerPayout: number };
  /** Minimal ÷ engine, in vCPU-ms per payout: 1 is the engine costing what the least a Temporal payout can. */
  ratio: number;
  targets: { ratioAtLeast0_85: boolean; engineOwnP99AtMost2s: boolean };
}

/** The paced phase's payouts: the only single payouts of the run. */
const PACED_PAYOUTS = `PayoutFlow = 'pix-withdrawal' AND BatchId IS NULL`;

/** Deletes the closed workflows `query` finds, 16 at a time, as a phase that ends when visibility finds none of them. */
async function retentionDeletes(
  cluster: Cluster,
  connection: ConnectionLike,
  client: Client,
  query: string,
): Promise<PhaseFigures> {
  const workflowIds: string[] = [];
  for await (const execution of client.workflow.list({ query })) workflowIds.push(execution.workflowId);
  const namespace = cluster.config.TEMPORAL_NAMESPACE;
  const gone = (workflowId: string) =>
    client.workflow
      .getHandle(workflowId)
      .describe()
      .then(
        () => false,
        (error: unknown) => {
          if (error instanceof WorkflowNotFoundError) return true;
          throw error;
        },
      );
  return phase(cluster, async () => {
    await mapConcurrently(workflowIds, 16, (workflowId) =>
      connection.workflowService.deleteWorkflowExecution({ namespace, workflowExecution: { workflowId } }),
    );
    await pollUntil(async () => ((await countWorkflows(client, query)) === 0 ? true : undefined), {
      timeoutMs: PHASE_TIMEOUT_MS,
      intervalMs: 500,
      description: `${workflowIds.length} deleted payouts to leave visibility`,
    });
    // Visibility's row may go before the execution's: the last ones asked for must be gone too.
    await pollUntil(
      async () => ((await Promise.all(workflowIds.slice(-20).map(gone))).every(Boolean) ? true : undefined),
      {
        timeoutMs: PHASE_TIMEOUT_MS,
        intervalMs: 500,
        description: 'the last deleted payouts to be gone',
      },
    );
    return workflowIds.length;
  });
}

/** A phase's costs per payout, the processes named in `counted` summed (the sandbox is printed, never counted). */
function phaseCost(figures: PhaseFigures, counted: (name: string) => boolean): PhaseCost {
  const total = Object.entries(figures.cpuMsPerItem)
    .filter(([name]) => counted(name))
    .reduce((sum, [, ms]) => sum + (ms ?? 0), 0);
  return {
    payouts: figures.items,
    seconds: figures.seconds,
    load: figures.load,
    vCpuMsPerPayout: { ...figures.cpuMsPerItem, total: round(total) },
    postgresTransactionsPerPayout: round(
      Object.values(figures.database).reduce((sum, { transactions }) => sum + transactions, 0),
    ),
    postgresByDatabase: figures.database,
    store: figures.store,
  };
}

function pacedCost(figures: PhaseFigures, rate: number, counted: (name: string) => boolean): PacedCost {
  const cost = phaseCost(figures, counted);
  return { ...cost, rate: round(rate), payoutsPerSecondPerVcpu: round(1_000 / cost.vCpuMsPerPayout.total) };
}

export function benchCluster(
  cluster: Cluster,
  sizes: BenchSizes,
  log: (line: string) => void,
): Promise<ClusterBenchReport> {
  const { config } = cluster;
  const apiKey = config.ENGINE_API_KEYS[0]?.secret ?? '';
  return overCluster(cluster, async ({ client, temporal, connection }) => {
    const { min, max } = sizes.callbackDelayMs;
    await delayCallbacks(cluster.sandboxUrl, config.SANDBOX_ADMIN_TOKEN, min, max - min);
    const run = Date.now().toString(36);

    log(`bench: the highest sustained rate, a batch of ${sizes.saturationPayouts} payouts`);
    const saturation = await batchPayoutPhase(cluster, client, connection, `bench-${run}`, sizes.saturationPayouts);
    const rate = saturation.perSecond * sizes.loadShare;

    log(`bench: the engine, ${sizes.payouts} single payouts at ${rate.toFixed(1)}/s`);
    let paced: PacedRunResult | undefined;
    const engineFigures = await phase(cluster, async () => {
      paced = await measurePaced({
        engine: { url: cluster.engineUrl, apiKey },
        client: temporal,
        rate,
        seconds: sizes.payouts / rate,
        timeoutMs: PHASE_TIMEOUT_MS,
      });
      return paced.payouts;
    });
    if (!paced) throw new Error('the paced phase returned nothing');

    log(`bench: the minimal payout, ${sizes.payouts} at ${rate.toFixed(1)}/s`);
    const minimal = await startMinimalService({
      env: { ...cluster.engineEnv, TEMPORAL_NAMESPACE: config.TEMPORAL_NAMESPACE },
      client: temporal,
      config,
      sandboxUrl: cluster.sandboxUrl,
      slots: 200,
    });
    let minimalRun: Awaited<ReturnType<typeof minimal.run>> | undefined;
    try {
      const minimalFigures = await phase(
        cluster,
        async () => {
          minimalRun = await minimal.run(
            { prefix: `minimal-${run}`, payouts: sizes.payouts, window: sizes.payouts, rate },
            PHASE_TIMEOUT_MS,
          );
          return minimalRun.payouts;
        },
        { minimal: minimal.child.pid },
      );
      if (!minimalRun) throw new Error('the minimal phase returned nothing');

      const engineCounts = (name: string) =>
        ['postgres', 'temporal', 'api'].includes(name) || name.startsWith('worker-');
      const engine = pacedCost(engineFigures, rate, engineCounts);
      const bare = pacedCost(minimalFigures, rate, (name) => ['postgres', 'temporal', 'minimal'].includes(name));
      const ratio = round(bare.vCpuMsPerPayout.total / engine.vCpuMsPerPayout.total, 2);

      log(`bench: retention, the engine's ${paced.payouts} payouts deleted`);
      const deleted = await retentionDeletes(cluster, connection, temporal, PACED_PAYOUTS);
      return {
        ...(await measuredSetup(cluster, connection)),
        settings: sizes,
        highestSustained: {
          payouts: saturation.items,
          perSecond: saturation.perSecond,
          seconds: saturation.seconds,
          load: saturation.load,
        },
        engine: {
          ...engine,
          completed: paced.completed,
          latencyMs: {
            acceptanceToFinal: paced.latencyMs,
            engineOwn: paced.engineOwnMs,
            submit: paced.submitLatencyMs,
            callbackToFinal: paced.callbackToFinalMs,
          },
        },
        minimal: { ...bare, completed: minimalRun.states.COMPLETO ?? 0, eagerlyStarted: minimalRun.eagerlyStarted },
        retentionDelete: {
          ...phaseCost(deleted, engineCounts),
          rowsWrittenPerPayout: round(
            Object.values(deleted.database).reduce((sum, { rowsWritten }) => sum + rowsWritten, 0),
          ),
        },
        ratio,
        targets: {
          ratioAtLeast0_85: ratio >= TARGET_RATIO,
          engineOwnP99AtMost2s: paced.engineOwnMs.sampled > 0 && paced.engineOwnMs.p99 <= TARGET_P99_MS,
        },
      };
    } finally {
      await stopChild(minimal.child, 30_000);
    }
  });
}
