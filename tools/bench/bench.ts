/**
 * `npm run bench`: starts its own stack on the embedded defaults (Temporal dev server, sandbox settling
 * at once, worker, engine API, each in its own process, in a temporary data folder) and measures, in
 * one run: the bare limit of this server and worker settings, the engine end to end, the time to accept
 * a 10,000-item batch, the time to accept a BENCH_ACCEPT_ITEMS batch as CSV and as JSON with the longest
 * /healthz answer meanwhile, the events and workflow tasks of a payout completed by callback (from sampled
 * histories, with the medians of where its time went), the peak RSS of the worker and the API, the CPU each
 * process used, and what the Temporal server's store did per workflow of each phase (its operations and
 * their time, from the server's own metrics). Prints one JSON document. The engine worker runs a prebuilt
 * workflow bundle, as production images do.
 * Sizes: BENCH_PAYOUTS (10000), BENCH_LIMIT_SECONDS (60, after BENCH_WARMUP_SECONDS, 5), BENCH_CONCURRENCY (BATCH_WINDOW),
 * BENCH_ACCEPT_ITEMS (100000, the most a batch may hold), BENCH_CHARGES (100 PIX charges created one after another, stack idle).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { measureBareLimit } from './floor-limit';
import { BatchApiClient } from '../../src/client';
import { measureChargeCreation } from './charge-latency';
import { measureAcceptance, type AcceptanceFormat, type AcceptanceResult } from './acceptance';
import { measureEngine } from './engine-run';
import { persistencePerWorkflow, readPersistenceCounters } from './server-persistence';
import { MAX_BATCH_ITEMS } from '../../src/batches/batch-request';
import { loadConfig } from '../../src/config/env';
import { freePort } from '../../src/net/free-port';
import { freeStackPorts, localStackEnv } from '../stack/local-stack-env';
import { cpuSeconds, peakRssBytes, runToExit, spawnKeepingTail, spawnWaitingForLog, stopChild, waitHealthy } from '../stack/child-services';
import { temporalCliPath } from '../temporal/binaries';
import { connectClient } from '../../src/temporal/connection';
import { startDevServer } from '../temporal/dev-server';
import { batchHandle } from '../../src/lifecycles/batch-client';

const benchEnvSchema = z.object({
  BENCH_PAYOUTS: z.coerce.number().int().min(1).default(10_000),
  BENCH_LIMIT_SECONDS: z.coerce.number().int().min(1).default(60),
  BENCH_WARMUP_SECONDS: z.coerce.number().int().min(0).default(5),
  BENCH_CONCURRENCY: z.coerce.number().int().min(1).optional(),
  BENCH_ACCEPT_ITEMS: z.coerce.number().int().min(1).max(MAX_BATCH_ITEMS).default(MAX_BATCH_ITEMS),
  BENCH_CHARGES: z.coerce.number().int().min(1).default(100),
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

async function main(): Promise<void> {
  const sizes = benchEnvSchema.parse(process.env);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-bench-'));
  const ports = { temporal: await freePort(), temporalMetrics: await freePort(), ...(await freeStackPorts()) };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...localStackEnv({ dataDir, temporalAddress: `127.0.0.1:${ports.temporal}`, ports }),
    SANDBOX_SETTLE_MS: '0',
    LOG_LEVEL: 'warn',
  };
  const config = loadConfig(env);
  const concurrency = sizes.BENCH_CONCURRENCY ?? config.BATCH_WINDOW;
  const temporal = await startDevServer({ binary: temporalCliPath(), port: ports.temporal, dbFile: path.join(dataDir, 'temporal.sqlite'), metricsPort: ports.temporalMetrics, stdio: 'ignore' });
  const serverStore = () => readPersistenceCounters(`http://127.0.0.1:${ports.temporalMetrics}/metrics`);
  const children: ChildProcess[] = [];
  const temporalClient = await connectClient(config);
  try {
    process.stderr.write(`bench: bare limit for ${sizes.BENCH_LIMIT_SECONDS} s at concurrency ${concurrency}\n`);
    const bareWorker = await spawnWaitingForLog('bench-worker', { ...env, TEMPORAL_TASK_QUEUE: 'bench-bare', LOG_LEVEL: 'info' }, '"worker.started"');
    const bareCpu = cpuUse({ temporal: temporal.pid, worker: bareWorker.pid });
    const beforeBare = await serverStore();
    const bare = await measureBareLimit(temporalClient.client, { taskQueue: 'bench-bare', seconds: sizes.BENCH_LIMIT_SECONDS, warmupSeconds: sizes.BENCH_WARMUP_SECONDS, concurrency });
    const bareCpuSeconds = bareCpu();
    const afterBare = await serverStore();
    await stopChild(bareWorker, 30_000);

    const bundle = path.join(dataDir, 'workflow-bundle.js');
    await runToExit('build-workflows', [bundle], env);
    env.WORKFLOW_BUNDLE_PATH = bundle;

    process.stderr.write(`bench: engine stack, ${sizes.BENCH_PAYOUTS} payouts\n`);
    const sandbox = spawnKeepingTail('sandbox', env);
    children.push(sandbox.child);
    await waitHealthy(`http://127.0.0.1:${ports.sandbox}/healthz`, sandbox.child, 'sandbox', { tail: sandbox.tail });
    const worker = await spawnWaitingForLog('worker', { ...env, LOG_LEVEL: 'info' }, '"worker.started"');
    children.push(worker);
    const api = spawnKeepingTail('api', env);
    children.push(api.child);
    await waitHealthy(`http://127.0.0.1:${ports.engine}/healthz`, api.child, 'engine API', { tail: api.tail });

    const engineApi = new BatchApiClient({ baseUrl: `http://127.0.0.1:${ports.engine}`, apiKey: config.ENGINE_API_KEYS[0] ?? '' });
    const engineCpu = cpuUse({ temporal: temporal.pid, worker: worker.pid, api: api.child.pid, sandbox: sandbox.child.pid });
    const beforeEngine = await serverStore();
    const engine = await measureEngine({ api: engineApi, client: temporalClient.client, payouts: sizes.BENCH_PAYOUTS, timeoutMs: 3_600_000 });
    const engineCpuSeconds = engineCpu();
    const afterEngine = await serverStore();
    const workerRss = peakRssBytes(worker.pid ?? -1);
    process.stderr.write(`bench: ${sizes.BENCH_CHARGES} PIX charges, one after another\n`);
    const charges = await measureChargeCreation({ baseUrl: `http://127.0.0.1:${ports.engine}`, apiKey: config.ENGINE_API_KEYS[0] ?? '', charges: sizes.BENCH_CHARGES });
    // Acceptances, measured after the run so that they do not slow it; each accepted batch is stopped at
    // once, so that its payouts do not run under the next measurement.
    const accept = async (items: number, format: AcceptanceFormat): Promise<AcceptanceResult> => {
      process.stderr.write(`bench: accepting ${items} items as ${format}\n`);
      const result = await measureAcceptance(engineApi, { items, format, healthzUrl: `http://127.0.0.1:${ports.engine}/healthz` });
      await batchHandle(temporalClient.client, result.batchId).terminate('bench: acceptance measured');
      return result;
    };
    const accept10k = await accept(10_000, 'json');
    const acceptCsv = await accept(sizes.BENCH_ACCEPT_ITEMS, 'csv');
    const acceptJson = await accept(sizes.BENCH_ACCEPT_ITEMS, 'json');
    const apiRss = peakRssBytes(api.child.pid ?? -1);
    const acceptanceFigures = (result: AcceptanceResult) => ({ acceptMs: Math.round(result.acceptMs), healthzMaxMs: result.healthz.maxMs, healthzAnswers: result.healthz.answers });

    const report = {
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(os.totalmem() / 1024 ** 3), node: process.version },
      settings: { payouts: sizes.BENCH_PAYOUTS, window: config.BATCH_WINDOW, bareConcurrency: concurrency, limitSeconds: sizes.BENCH_LIMIT_SECONDS, warmupSeconds: sizes.BENCH_WARMUP_SECONDS },
      payoutsPerSecond: Number(engine.perSecond.toFixed(1)),
      bareWorkflowsPerSecond: Number(bare.perSecond.toFixed(1)),
      ratio: Number((engine.perSecond / bare.perSecond).toFixed(2)),
      latencyMs: engine.latencyMs,
      payoutLatencyMs: engine.payoutLatencyMs,
      perPayout: engine.perPayout,
      completed: engine.completed,
      engineSeconds: Number(engine.seconds.toFixed(1)),
      chargeCreation: charges,
      accept10kMs: Math.round(accept10k.acceptMs),
      acceptance: { items: sizes.BENCH_ACCEPT_ITEMS, csv: acceptanceFigures(acceptCsv), json: acceptanceFigures(acceptJson) },
      peakRssMb: { worker: mb(workerRss), api: mb(apiRss) },
      cpuSeconds: { bare: bareCpuSeconds, engine: engineCpuSeconds },
      serverStorePerWorkflow: { bare: persistencePerWorkflow(beforeBare, afterBare, bare.completedWithWarmup), engine: persistencePerWorkflow(beforeEngine, afterEngine, engine.completed) },
      targets: {
        accept10kUnder2s: accept10k.acceptMs < 2_000,
        chargeCreationP99Under2s: charges.latencyMs.p99 < 2_000,
        healthzUnder100msWhileAccepting: Math.max(acceptCsv.healthz.maxMs, acceptJson.healthz.maxMs) < 100,
        ratioAtLeast0_9: engine.perSecond / bare.perSecond >= 0.9,
        callbackPayoutAtMost16Events: engine.perPayout.sampled > 0 && engine.perPayout.events <= 16,
        callbackPayoutAtMost2WorkflowTasks: engine.perPayout.sampled > 0 && engine.perPayout.workflowTasks <= 2,
        workerRssUnder400Mb: workerRss !== undefined && workerRss < 400 * 1024 * 1024,
        [`accept${sizes.BENCH_ACCEPT_ITEMS}ItemsUnder5s`]: Math.max(acceptCsv.acceptMs, acceptJson.acceptMs) < 5_000,
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
