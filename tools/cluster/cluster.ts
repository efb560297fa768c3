/**
 * `npm run cluster`: the engine on a real Temporal server with PostgreSQL, natively (tools/cluster): in
 * CLUSTER_DATA_DIR (DATA_DIR/cluster), CLUSTER_WORKERS worker processes (2). Ctrl-C stops every process.
 * CLUSTER_CHECK=1: on a stack of its own (a temporary folder, free ports), the smoke of
 * tools/cluster/cluster-check.ts; prints one JSON line and exits 1 on any loss.
 * CLUSTER_MEASURE=1: likewise, the figures of docs/scaling.md (tools/cluster/cluster-measure.ts), as JSON.
 * CLUSTER_BENCH=1: likewise, the engine against the minimal Temporal payout on the production topology
 * (tools/cluster/cluster-bench.ts), as JSON: docs/benchmarks.md.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { checkPassed, CLUSTER_CHECK_ENV, runClusterCheck, type ClusterCheckReport } from './cluster-check';
import { benchCluster, CLUSTER_BENCH_ENV, type BenchSizes } from './cluster-bench';
import { measureCluster, type MeasureSizes } from './cluster-measure';
import { ClusterStopped, startCluster, type Cluster, type ClusterOptions } from './cluster-stack';
import { TEMPORAL_SERVER_VERSION } from './server-build';
import { loadConfigOrExit } from '../../src/config/env';
import { toolSettingsOrExit } from '../stack/tool-settings';
import { onShutdown } from '../../src/cli/shutdown';

const clusterEnvSchema = z
  .object({
    CLUSTER_CHECK: z.enum(['0', '1']).default('0'),
    CLUSTER_WORKERS: z.coerce.number().int().min(1).max(8).default(2),
    CLUSTER_DATA_DIR: z.string().min(1).optional(),
    CLUSTER_CHECK_PAYOUTS: z.coerce.number().int().min(1).max(5_000).default(300),
    CLUSTER_MEASURE: z.enum(['0', '1']).default('0'),
    /** History shards of the measured cluster's new database: how much one shard carries is measured with 1. */
    CLUSTER_SHARDS: z.coerce.number().int().min(1).max(16_384).optional(),
    CLUSTER_MEASURE_PAYOUTS: z.coerce.number().int().min(1).max(100_000).default(2_000),
    CLUSTER_MEASURE_CHARGES: z.coerce.number().int().min(1).max(10_000).default(100),
    CLUSTER_MEASURE_CARD_PAYMENTS: z.coerce.number().int().min(1).max(10_000).default(30),
    CLUSTER_MEASURE_BARE_PAYOUTS: z.coerce.number().int().min(0).default(2_000),
    CLUSTER_BENCH: z.enum(['0', '1']).default('0'),
    CLUSTER_BENCH_PAYOUTS: z.coerce.number().int().min(1).max(100_000).default(5_000),
    CLUSTER_BENCH_SATURATION_PAYOUTS: z.coerce.number().int().min(1).max(100_000).default(2_000),
    CLUSTER_BENCH_CALLBACK_MIN_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
    CLUSTER_BENCH_CALLBACK_MAX_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
    CLUSTER_BENCH_LOAD_SHARE: z.coerce.number().gt(0).max(1).default(0.8),
  })
  .refine((settings) => settings.CLUSTER_BENCH_CALLBACK_MAX_MS >= settings.CLUSTER_BENCH_CALLBACK_MIN_MS, {
    message: 'CLUSTER_BENCH_CALLBACK_MAX_MS is below CLUSTER_BENCH_CALLBACK_MIN_MS',
    path: ['CLUSTER_BENCH_CALLBACK_MAX_MS'],
  });
type ClusterSettings = z.output<typeof clusterEnvSchema>;

/** The check's short waits; the sandbox settling at once and quieter logs, as the bench runs. */
const CLUSTER_MEASURE_ENV = { ...CLUSTER_CHECK_ENV, SANDBOX_SETTLE_MS: '0', LOG_LEVEL: 'warn' };

const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);

function banner(cluster: Cluster): string {
  const { config } = cluster;
  return [
    '',
    `The engine on a Temporal server ${TEMPORAL_SERVER_VERSION} with PostgreSQL is up:`,
    `  Engine API         ${cluster.engineUrl}   (Authorization: Bearer ${config.ENGINE_API_KEYS[0]?.secret ?? ''})`,
    `  Sandbox (PSP)      ${cluster.sandboxUrl}`,
    `  Temporal frontend  ${cluster.temporalAddress}   namespace ${config.TEMPORAL_NAMESPACE}; no Web UI here (docs/operations.md, "A real Temporal server")`,
    `  Temporal metrics   ${cluster.serverMetricsUrl}`,
    ...cluster.workerMetricsUrls().map((url, index) => `  Worker ${index + 1} metrics   ${url}`),
    `  Data and logs      ${config.DATA_DIR} (logs/<part>.log)`,
    'Press Ctrl-C to stop everything.',
    '',
  ].join('\n');
}

/** The stack, stopped on Ctrl-C even while it is still starting (its parts run in process groups of their own). */
function startStoppable(options: Omit<ClusterOptions, 'log' | 'signal'>): Promise<Cluster> {
  const stopping = new AbortController();
  const starting = startCluster({ ...options, log, signal: stopping.signal });
  onShutdown(
    async () => {
      stopping.abort();
      const cluster = await starting.catch(() => undefined);
      await cluster?.stop();
    },
    (event) => log(`cluster: ${event}`),
    { repeatForcesExit: false },
  );
  return starting;
}

/** A throwaway folder; PostgreSQL runs as its own user when we are root, and must be able to pass through it. */
function throwawayDir(label: string): string {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `payout-cluster-${label}-`));
  chmodSync(dataDir, 0o711);
  return dataDir;
}

/** A cluster in a throwaway folder, which goes too when Ctrl-C stops it before it is up (a failed start keeps it, with its logs). */
async function startThrowaway(dataDir: string, options: Omit<ClusterOptions, 'log' | 'signal'>): Promise<Cluster> {
  try {
    return await startStoppable(options);
  } catch (error) {
    if (error instanceof ClusterStopped) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function check(workers: number, payouts: number): Promise<number> {
  const dataDir = throwawayDir('check');
  log(`cluster check: ${payouts} payouts, ${workers} workers, in ${dataDir}`);
  const cluster = await startThrowaway(dataDir, { dataDir, workers, ports: 'free', env: CLUSTER_CHECK_ENV });
  let report: ClusterCheckReport | undefined;
  try {
    report = await runClusterCheck(cluster, { payouts, log });
  } finally {
    await cluster.stop();
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
  if (checkPassed(report)) {
    rmSync(dataDir, { recursive: true, force: true });
    return 0;
  }
  log(`cluster check: failed; logs and state kept in ${dataDir}`);
  return 1;
}

/** On a cluster of its own, figures printed as JSON; its folder goes once they are printed. */
async function measureOnThrowaway(
  label: string,
  settings: ClusterSettings,
  env: Readonly<Record<string, string>>,
  figures: (cluster: Cluster) => Promise<unknown>,
): Promise<number> {
  const dataDir = throwawayDir(label);
  const workers = settings.CLUSTER_WORKERS;
  log(`cluster ${label}: ${workers} workers, ${settings.CLUSTER_SHARDS ?? 'the configured'} shards, in ${dataDir}`);
  const cluster = await startThrowaway(dataDir, {
    dataDir,
    workers,
    ports: 'free',
    env,
    ...(settings.CLUSTER_SHARDS ? { shards: settings.CLUSTER_SHARDS } : {}),
  });
  try {
    process.stdout.write(`${JSON.stringify(await figures(cluster), null, 2)}\n`);
  } finally {
    await cluster.stop();
  }
  rmSync(dataDir, { recursive: true, force: true });
  return 0;
}

const measureSizes = (settings: ClusterSettings): MeasureSizes => ({
  payouts: settings.CLUSTER_MEASURE_PAYOUTS,
  charges: settings.CLUSTER_MEASURE_CHARGES,
  cardPayments: settings.CLUSTER_MEASURE_CARD_PAYMENTS,
  barePayouts: settings.CLUSTER_MEASURE_BARE_PAYOUTS,
});

const benchSizes = (settings: ClusterSettings): BenchSizes => ({
  payouts: settings.CLUSTER_BENCH_PAYOUTS,
  saturationPayouts: settings.CLUSTER_BENCH_SATURATION_PAYOUTS,
  callbackDelayMs: { min: settings.CLUSTER_BENCH_CALLBACK_MIN_MS, max: settings.CLUSTER_BENCH_CALLBACK_MAX_MS },
  loadShare: settings.CLUSTER_BENCH_LOAD_SHARE,
});

async function main(): Promise<void> {
  const settings = toolSettingsOrExit(clusterEnvSchema);
  if (settings.CLUSTER_CHECK === '1')
    process.exit(await check(settings.CLUSTER_WORKERS, settings.CLUSTER_CHECK_PAYOUTS));
  if (settings.CLUSTER_MEASURE === '1') {
    const sizes = measureSizes(settings);
    process.exit(
      await measureOnThrowaway('measure', settings, CLUSTER_MEASURE_ENV, (c) => measureCluster(c, sizes, log)),
    );
  }
  if (settings.CLUSTER_BENCH === '1') {
    const sizes = benchSizes(settings);
    process.exit(await measureOnThrowaway('bench', settings, CLUSTER_BENCH_ENV, (c) => benchCluster(c, sizes, log)));
  }

  const config = loadConfigOrExit();
  const dataDir = path.resolve(settings.CLUSTER_DATA_DIR ?? path.join(config.DATA_DIR, 'cluster'));
  const cluster = await startStoppable({ dataDir, workers: settings.CLUSTER_WORKERS, ports: 'configured' });
  process.stdout.write(banner(cluster));
}

main().catch((error: unknown) => {
  // Stopped by Ctrl-C while starting: everything started is stopped already, nothing to explain.
  if (error instanceof ClusterStopped) process.exit(130);
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
