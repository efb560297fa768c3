/**
 * `CLUSTER_BENCH=1 npm run cluster`, small: on a cluster of its own (PostgreSQL, the built Temporal server, 2
 * workers) it prints one JSON report in which every payout of both paced phases completed, the callbacks came as
 * late as asked, and each cost is read from every process. Run by `npm run test:cluster` (.ci/run, after the build).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import { serverInstalled, ServerNotInstalledError } from '../../tools/cluster/server-build';

const PAYOUTS = 60;
const CALLBACK_MIN_MS = 300;

const quantiles = z.object({ p50: z.number(), p99: z.number() });
const cost = z.object({
  payouts: z.number(),
  vCpuMsPerPayout: z.record(z.string(), z.number().nullable()),
  postgresTransactionsPerPayout: z.number(),
});
const reportSchema = z.object({
  highestSustained: z.object({ payouts: z.number(), perSecond: z.number() }),
  engine: cost.extend({
    completed: z.number(),
    latencyMs: z.object({
      acceptanceToFinal: quantiles,
      engineOwn: quantiles.extend({ sampled: z.number() }),
    }),
  }),
  minimal: cost.extend({ completed: z.number(), eagerlyStarted: z.number() }),
  retentionDelete: cost,
  ratio: z.number(),
  targets: z.object({ ratioAtLeast0_85: z.boolean(), engineOwnP99AtMost2s: z.boolean() }),
});

function runBench(): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../../tools/cluster/cluster.ts')], {
    env: {
      ...process.env,
      CLUSTER_BENCH: '1',
      CLUSTER_BENCH_PAYOUTS: String(PAYOUTS),
      CLUSTER_BENCH_SATURATION_PAYOUTS: String(PAYOUTS),
      CLUSTER_BENCH_CALLBACK_MIN_MS: String(CALLBACK_MIN_MS),
      CLUSTER_BENCH_CALLBACK_MAX_MS: '600',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`the cluster bench exited ${code}:\n${stderr.slice(-4_000)}`)),
    );
  });
}

beforeAll(() => {
  if (!serverInstalled()) throw new ServerNotInstalledError();
});

test('the cluster bench prints the engine and the minimal payout, every payout completed, costs from every process', async () => {
  const report = reportSchema.parse(JSON.parse(await runBench()));
  expect(report.highestSustained).toMatchObject({ payouts: PAYOUTS });
  expect(report.highestSustained.perSecond).toBeGreaterThan(0);
  expect(report.engine).toMatchObject({ payouts: PAYOUTS, completed: PAYOUTS });
  expect(report.minimal).toMatchObject({ payouts: PAYOUTS, completed: PAYOUTS });
  expect(report.minimal.eagerlyStarted).toBeGreaterThan(0);
  expect(report.retentionDelete.payouts).toBe(PAYOUTS);

  for (const part of ['postgres', 'temporal', 'worker-1', 'worker-2', 'api', 'total'])
    expect(report.engine.vCpuMsPerPayout[part]).toBeGreaterThan(0);
  expect(report.minimal.vCpuMsPerPayout.minimal).toBeGreaterThan(0);
  expect(report.engine.postgresTransactionsPerPayout).toBeGreaterThan(0);
  expect(report.ratio).toBeCloseTo(
    (report.minimal.vCpuMsPerPayout.total ?? 0) / (report.engine.vCpuMsPerPayout.total ?? 1),
    1,
  );

  // The provider's wait is in the merchant's latency and out of the engine's own.
  expect(report.engine.latencyMs.acceptanceToFinal.p50).toBeGreaterThanOrEqual(CALLBACK_MIN_MS);
  expect(report.engine.latencyMs.engineOwn.sampled).toBeGreaterThan(0);
  expect(report.engine.latencyMs.engineOwn.p50).toBeLessThan(report.engine.latencyMs.acceptanceToFinal.p50);
}, 900_000);
