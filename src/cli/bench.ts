/**
 * `npm run bench`: starts its own stack on the embedded defaults (Temporal dev server, sandbox settling
 * at once, worker, engine API, each in its own process, in a temporary data folder) and measures, in
 * one run: the bare limit of this server and worker settings, the engine end to end, the time to accept
 * a 10,000-item batch, the peak RSS of the worker and the API, and the CPU each process used. Prints
 * one JSON document. The engine worker runs a prebuilt workflow bundle, as production images do.
 * Sizes: BENCH_PAYOUTS (10000), BENCH_LIMIT_SECONDS (60, after BENCH_WARMUP_SECONDS, 5), BENCH_CONCURRENCY (BATCH_WINDOW).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { measureBareLimit } from '../bench/bare-limit';
import { BatchApiClient } from '../batches/batch-api-client';
import { measureAcceptance, measureEngine } from '../bench/engine-run';
import { loadConfig } from '../config/env';
import { freePort } from '../net/free-port';
import { cpuSeconds, hasExited, peakRssBytes, spawnService, stopChild, waitHealthy } from '../stack/child-services';
import { temporalCliPath } from '../temporal/binaries';
import { connectClient } from '../temporal/connection';
import { startDevServer } from '../temporal/dev-server';
import { pollUntil, StopPolling } from '../util/poll';

const benchEnvSchema = z.object({
  BENCH_PAYOUTS: z.coerce.number().int().min(1).default(10_000),
  BENCH_LIMIT_SECONDS: z.coerce.number().int().min(1).default(60),
  BENCH_WARMUP_SECONDS: z.coerce.number().int().min(0).default(5),
  BENCH_CONCURRENCY: z.coerce.number().int().min(1).optional(),
});

const mb = (bytes: number | undefined): number | null => (bytes === undefined ? null : Math.round(bytes / 1024 / 1024));

/** CPU seconds each process used between two readings: where a run's time went. */
function cpuUse(pids: Record<string, number | undefined>): () => Record<string, number | null> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, pid === undefined ? undefined : cpuSeconds(pid)]));
  return () =>
    Object.fromEntries(
      Object.entries(pids).map(([name, pid]) => {
        const start = before[name];
        const end = pid === undefined ? undefined : cpuSeconds(pid);
        return [name, start === undefined || end === undefined ? null : Number((end - start).toFixed(1))];
      }),
    );
}

async function runToExit(name: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawnService(name, { env, args, stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${name} exited with ${code}`);
}

async function spawnWaitingForLog(name: string, env: NodeJS.ProcessEnv, marker: string): Promise<ChildProcess> {
  const child = spawnService(name, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-10_000);
  });
  await pollUntil(
    () => {
      if (hasExited(child)) throw new StopPolling(`${name} exited: ${output}`);
      return output.includes(marker) ? true : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 100, description: `${name} to start` },
  );
  return child;
}

async function main(): Promise<void> {
  const sizes = benchEnvSchema.parse(process.env);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-bench-'));
  const ports = { temporal: await freePort(), engine: await freePort(), sandbox: await freePort() };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: `127.0.0.1:${ports.temporal}`,
    ENGINE_PORT: String(ports.engine),
    SANDBOX_PORT: String(ports.sandbox),
    PAYMENT_API_BASE_URL: `http://127.0.0.1:${ports.sandbox}`,
    ENGINE_PUBLIC_URL: `http://127.0.0.1:${ports.engine}`,
    SANDBOX_SETTLE_MS: '0',
    LOG_LEVEL: 'warn',
  };
  const config = loadConfig(env);
  const concurrency = sizes.BENCH_CONCURRENCY ?? config.BATCH_WINDOW;
  const temporal = await startDevServer({ binary: temporalCliPath(), port: ports.temporal, dbFile: path.join(dataDir, 'temporal.sqlite'), stdio: 'ignore' });
  const children: ChildProcess[] = [];
  const temporalClient = await connectClient(config);
  try {
    process.stderr.write(`bench: bare limit for ${sizes.BENCH_LIMIT_SECONDS} s at concurrency ${concurrency}\n`);
    const bareWorker = await spawnWaitingForLog('bench-worker', { ...env, TEMPORAL_TASK_QUEUE: 'bench-bare', LOG_LEVEL: 'info' }, '"worker.started"');
    const bareCpu = cpuUse({ temporal: temporal.pid, worker: bareWorker.pid });
    const bare = await measureBareLimit(temporalClient.client, { taskQueue: 'bench-bare', seconds: sizes.BENCH_LIMIT_SECONDS, warmupSeconds: sizes.BENCH_WARMUP_SECONDS, concurrency });
    const bareCpuSeconds = bareCpu();
    await stopChild(bareWorker, 30_000);

    const bundle = path.join(dataDir, 'workflow-bundle.js');
    await runToExit('build-workflows', [bundle], env);
    env.WORKFLOW_BUNDLE_PATH = bundle;

    process.stderr.write(`bench: engine stack, ${sizes.BENCH_PAYOUTS} payouts\n`);
    const sandbox = spawnService('sandbox', { env, stdio: 'ignore' });
    children.push(sandbox);
    await waitHealthy(`http://127.0.0.1:${ports.sandbox}/healthz`, sandbox, 'sandbox');
    const worker = await spawnWaitingForLog('worker', { ...env, LOG_LEVEL: 'info' }, '"worker.started"');
    children.push(worker);
    const api = spawnService('api', { env, stdio: 'ignore' });
    children.push(api);
    await waitHealthy(`http://127.0.0.1:${ports.engine}/healthz`, api, 'engine API');

    const engineApi = new BatchApiClient({ baseUrl: `http://127.0.0.1:${ports.engine}`, apiKey: config.ENGINE_API_KEYS[0] ?? '' });
    const engineCpu = cpuUse({ temporal: temporal.pid, worker: worker.pid, api: api.pid, sandbox: sandbox.pid });
    const engine = await measureEngine({ api: engineApi, client: temporalClient.client, payouts: sizes.BENCH_PAYOUTS, timeoutMs: 3_600_000 });
    const engineCpuSeconds = engineCpu();
    const workerRss = peakRssBytes(worker.pid ?? -1);
    // Acceptance of a 10,000-item batch, measured after the run so that its payouts do not slow the run.
    const acceptance = await measureAcceptance(engineApi, 10_000);
    const apiRss = peakRssBytes(api.pid ?? -1);

    const report = {
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(os.totalmem() / 1024 ** 3), node: process.version },
      settings: { payouts: sizes.BENCH_PAYOUTS, window: config.BATCH_WINDOW, bareConcurrency: concurrency, limitSeconds: sizes.BENCH_LIMIT_SECONDS, warmupSeconds: sizes.BENCH_WARMUP_SECONDS },
      payoutsPerSecond: Number(engine.perSecond.toFixed(1)),
      bareWorkflowsPerSecond: Number(bare.perSecond.toFixed(1)),
      ratio: Number((engine.perSecond / bare.perSecond).toFixed(2)),
      latencyMs: engine.latencyMs,
      payoutLatencyMs: engine.payoutLatencyMs,
      completed: engine.completed,
      engineSeconds: Number(engine.seconds.toFixed(1)),
      accept10kMs: Math.round(acceptance.acceptMs),
      peakRssMb: { worker: mb(workerRss), api: mb(apiRss) },
      cpuSeconds: { bare: bareCpuSeconds, engine: engineCpuSeconds },
      targets: {
        accept10kUnder2s: acceptance.acceptMs < 2_000,
        ratioAtLeast0_7: engine.perSecond / bare.perSecond >= 0.7,
        workerRssUnder500Mb: workerRss !== undefined && workerRss < 500 * 1024 * 1024,
      },
    };
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  } finally {
    for (const child of children.reverse()) await stopChild(child, 30_000);
    await temporalClient.close();
    await temporal.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
