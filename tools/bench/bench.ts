/**
 * `npm run bench`: starts its own stacks on the embedded defaults (Temporal dev server, sandbox settling at
 * once, worker, engine API, each in its own process, in a temporary data folder) and measures, in one run:
 *
 * 0. the production path (production-path.ts), on a stack whose provider calls back BENCH_CALLBACK_DELAY_MS after
 *    each request: the first charge and payout after its cold start, then BENCH_COUNTED_PAYOUTS single payouts'
 *    persisted transitions, visibility writes, Temporal Cloud actions, history events and workflow tasks, with
 *    issue 41's targets as booleans (BENCH_PRODUCTION_PATH_ONLY=1: this phase alone);
 * 1. the yardstick: BENCH_PAYOUTS minimal Temporal payouts (minimal-payout/: eager start, the callback as an update,
 *    one local activity per task, the same two provider calls, no engine code) on a fresh Temporal database;
 * 2. the engine: one batch of BENCH_PAYOUTS payouts through the API, the worker, the sandbox and its
 *    callbacks, on another fresh database, with the events, workflow tasks and waits of sampled histories;
 *    in phases 1, 2 and 7 the sandbox calls back BENCH_CALLBACK_DELAY_MS after each withdrawal, as in production
 *    (BENCH_YARDSTICK_ONLY=1: these three phases alone);
 * 3. latency at 80 % of the engine's rate: single payouts paced for BENCH_PACED_SECONDS;
 * 4. PIX charge creation (BENCH_CHARGES, one after another);
 * 5. the worker's memory with BENCH_OPEN_PAYOUTS payouts waiting for their callback;
 * 6. with the worker stopped, the acceptance of a 10,000-item batch and of a BENCH_ACCEPT_ITEMS batch as CSV and
 *    as JSON with the longest /healthz answer meanwhile;
 * 7. with the engine's stack stopped, the yardstick again on a fresh database: its figures are both phases'.
 *
 * For phases 1, 2 and 7, the CPU every process used per item (the bench's own client included), and what the
 * Temporal server's store did per item (its own metrics). Prints one JSON document, the targets of issues 29 and 41
 * as booleans. The engine worker runs a prebuilt workflow bundle, as production images do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { EngineClient } from '../../src/client';
import { measureChargeCreation } from './charge-latency';
import { measureAcceptance, type AcceptanceFormat, type AcceptanceResult } from './acceptance';
import { processCpu } from './cpu-use';
import { batchHistoryCost, measureEngine } from './engine-run';
import { measureOpenWorkflows } from './open-workflows';
import { measurePaced } from './paced-run';
import { persistencePerWorkflow, readPersistenceCounters } from './server-persistence';
import { MAX_BATCH_ITEMS } from '../../src/batches/batch-request';
import { loadConfig } from '../../src/config/env';
import { freeStackPorts, localStackEnv } from '../stack/local-stack-env';
import { peakRssBytes, runToExit, stopChild } from '../stack/child-services';
import { startEngineStack } from './engine-stack';
import { measureProductionPath, type ProductionPathResult } from './production-path';
import { batchHandle, batchWorkflowId } from '../../src/lifecycles/batch-client';
import { measureMinimalPayouts } from './minimal-phase';
import { firstTasksBetween, readFirstTasks } from './first-tasks';
import { delayCallbacks } from './sandbox-callback-delay';
import { engineTotal, perItem, yardstickFigures } from './yardstick';

const benchEnvSchema = z.object({
  BENCH_PAYOUTS: z.coerce.number().int().min(1).default(10_000),
  BENCH_CONCURRENCY: z.coerce.number().int().min(1).optional(),
  BENCH_PACED_SECONDS: z.coerce.number().int().min(1).default(60),
  BENCH_OPEN_PAYOUTS: z.coerce.number().int().min(0).default(10_000),
  BENCH_ACCEPT_ITEMS: z.coerce.number().int().min(1).max(MAX_BATCH_ITEMS).default(MAX_BATCH_ITEMS),
  BENCH_CHARGES: z.coerce.number().int().min(1).default(100),
  // The provider's callback comes this long after its request: past the payout's first workflow task, as in production
  // (phases 0, 1, 2 and 7).
  BENCH_CALLBACK_DELAY_MS: z.coerce.number().int().min(0).default(2_000),
  BENCH_COUNTED_PAYOUTS: z.coerce.number().int().min(1).default(20),
  // Only the production-path phase (cold start and counters): a run of about a minute.
  BENCH_PRODUCTION_PATH_ONLY: z.stringbool().default(false),
  // Only the yardstick and the engine's CPU (phases 1, 2 and 7): the ratio, in minutes with a small BENCH_PAYOUTS.
  BENCH_YARDSTICK_ONLY: z.stringbool().default(false),
});

const TARGET_ENGINE_MS = 36;
const mb = (bytes: number | undefined): number | null => (bytes === undefined ? null : Math.round(bytes / 1024 / 1024));
const PHASE_TIMEOUT_MS = 3_600_000;

async function main(): Promise<void> {
  const sizes = benchEnvSchema.parse(process.env);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-bench-'));
  const ports = await freeStackPorts();
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...localStackEnv({ dataDir, temporalAddress: `127.0.0.1:${ports.temporal}`, ports }),
    SANDBOX_SETTLE_MS: '0',
    // The open-workflow phase's payouts wait for a callback that never comes: no check polls while it lasts.
    // The other phases' callbacks come within seconds, so the timer's length changes nothing in them.
    PAYOUT_CALLBACK_WAIT_MS: String(PHASE_TIMEOUT_MS),
    LOG_LEVEL: 'warn',
  };
  const config = loadConfig(baseEnv);
  const window = sizes.BENCH_CONCURRENCY ?? config.BATCH_WINDOW;
  const load = () => os.loadavg().map((value) => Number(value.toFixed(2)));
  const loadAtStart = load();
  const machine = () => ({
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    loadAverage: { atStart: loadAtStart, atEnd: load() },
  });
  const stops: (() => Promise<void>)[] = [];
  try {
    const bundle = path.join(dataDir, 'workflow-bundle.js');
    await runToExit('build-workflows', [bundle], baseEnv);
    // 0. The production path: the first requests after a cold start, then what a payout costs the server, counted.
    let productionPath: ProductionPathResult | null = null;
    if (!sizes.BENCH_YARDSTICK_ONLY) {
      process.stderr.write(
        `bench: production path, callbacks ${sizes.BENCH_CALLBACK_DELAY_MS} ms after the request, ${sizes.BENCH_COUNTED_PAYOUTS} payouts counted\n`,
      );
      productionPath = await measureProductionPath({
        dir: dataDir,
        env: baseEnv,
        ports,
        bundle,
        callbackDelayMs: sizes.BENCH_CALLBACK_DELAY_MS,
        payouts: sizes.BENCH_COUNTED_PAYOUTS,
        timeoutMs: PHASE_TIMEOUT_MS,
      });
      if (sizes.BENCH_PRODUCTION_PATH_ONLY) {
        process.stdout.write(
          JSON.stringify({ loadAverage: { atStart: loadAtStart, atEnd: load() }, productionPath }, null, 2) + '\n',
        );
        return;
      }
    }

    // 1. The yardstick, on a database of its own; measured again once the engine's stack has stopped (7.).
    const minimal = (phase: 'before' | 'after') => {
      process.stderr.write(
        `bench: ${sizes.BENCH_PAYOUTS} minimal payouts, ${window} in flight, callbacks after ${sizes.BENCH_CALLBACK_DELAY_MS} ms (${phase} the engine)\n`,
      );
      return measureMinimalPayouts({
        dir: path.join(dataDir, `minimal-${phase}`),
        env: baseEnv,
        config,
        ports,
        payouts: sizes.BENCH_PAYOUTS,
        window,
        callbackDelayMs: sizes.BENCH_CALLBACK_DELAY_MS,
        timeoutMs: PHASE_TIMEOUT_MS,
      });
    };
    const minimalBefore = await minimal('before');

    // 2. The engine, on a fresh database, its callbacks as late as the yardstick's.
    process.stderr.write(`bench: engine stack, ${sizes.BENCH_PAYOUTS} payouts\n`);
    const stack = await startEngineStack({
      dir: path.join(dataDir, 'engine'),
      env: baseEnv,
      ports,
      bundle,
      buildBundle: false,
    });
    stops.push(() => stack.stop());
    const { temporal, worker, engineUrl, apiKey } = stack;
    const engineApi = new EngineClient({ baseUrl: engineUrl, apiKey });
    const callbackDelay = await delayCallbacks(
      `http://127.0.0.1:${ports.sandbox}`,
      config.SANDBOX_ADMIN_TOKEN,
      sizes.BENCH_CALLBACK_DELAY_MS,
    );
    const engineCpu = processCpu({
      temporal: temporal.server.pid,
      worker: worker.pid,
      api: stack.api.pid,
      sandbox: stack.sandbox.pid,
      client: process.pid,
    });
    const engineStoreBefore = await readPersistenceCounters(temporal.metricsUrl);
    const workerMetricsUrl = `http://127.0.0.1:${ports.workerMetrics}/metrics`;
    const firstTasksBefore = await readFirstTasks(workerMetricsUrl);
    const engine = await measureEngine({
      api: engineApi,
      client: temporal.client.client,
      payouts: sizes.BENCH_PAYOUTS,
      timeoutMs: PHASE_TIMEOUT_MS,
    });
    const engineCpuUsed = engineCpu();
    const firstTasks = firstTasksBetween(firstTasksBefore, await readFirstTasks(workerMetricsUrl));
    // The phases after keep their callbacks at once: their latencies are the engine's own.
    await callbackDelay.clear();
    const engineStore = persistencePerWorkflow(
      engineStoreBefore,
      await readPersistenceCounters(temporal.metricsUrl),
      engine.completed,
    );
    const engineMs = perItem(engineCpuUsed, engine.completed);
    const engineMsTotal = engineTotal(engineMs);
    const cpuMsPerPayout = {
      temporal: engineMs.temporal,
      worker: engineMs.worker,
      api: engineMs.api,
      sandbox: engineMs.sandbox,
      engine: engineMsTotal,
      benchClient: engineMs.client,
    };
    // 7. The yardstick again, the engine's stack stopped: the box's speed drifts within minutes, enough for one short
    // phase alone to move the ratio between runs of the same code (docs/benchmarks.md).
    const yardstickAfter = async () => {
      for (const stop of stops.splice(0).reverse()) await stop();
      return yardstickFigures(engineMsTotal, minimalBefore, await minimal('after'));
    };
    if (sizes.BENCH_YARDSTICK_ONLY) {
      const { ratioAtLeast0_85, ...yardstick } = await yardstickAfter();
      const report = {
        machine: machine(),
        settings: { payouts: sizes.BENCH_PAYOUTS, window, callbackDelayMs: sizes.BENCH_CALLBACK_DELAY_MS },
        cpuMsPerPayout,
        ...yardstick,
        payoutsPerSecond: Number(engine.perSecond.toFixed(1)),
        completed: engine.completed,
        engineStore,
        firstTasks,
        targets: { engineAtMost36Ms: engineMsTotal <= TARGET_ENGINE_MS, ratioAtLeast0_85 },
      };
      process.stdout.write(JSON.stringify(report, null, 2) + '\n');
      return;
    }
    const workerRss = peakRssBytes(worker.pid ?? -1);
    // Read after the CPU figures: the reading is the bench's, not the batch's.
    const batchHistory = await batchHistoryCost(temporal.client.client, batchWorkflowId(engine.batchId));

    // 3. Latency at 80 % of the rate just measured.
    const pacedRate = 0.8 * engine.perSecond;
    process.stderr.write(`bench: single payouts at ${pacedRate.toFixed(1)}/s for ${sizes.BENCH_PACED_SECONDS} s\n`);
    const paced = await measurePaced({
      engine: { url: engineUrl, apiKey },
      client: temporal.client.client,
      rate: pacedRate,
      seconds: sizes.BENCH_PACED_SECONDS,
      timeoutMs: PHASE_TIMEOUT_MS,
    });

    // 4. PIX charge creation, one after another.
    process.stderr.write(`bench: ${sizes.BENCH_CHARGES} PIX charges, one after another\n`);
    const charges = await measureChargeCreation({ baseUrl: engineUrl, apiKey, charges: sizes.BENCH_CHARGES });

    // 5. Payouts waiting for their callback: they stay open until the stack stops.
    process.stderr.write(`bench: ${sizes.BENCH_OPEN_PAYOUTS} payouts waiting for their callback\n`);
    const openWorkflows =
      sizes.BENCH_OPEN_PAYOUTS > 0
        ? await measureOpenWorkflows({
            engine: { url: engineUrl, apiKey },
            client: temporal.client.client,
            payouts: sizes.BENCH_OPEN_PAYOUTS,
            workerPid: worker.pid ?? -1,
            concurrency: 20,
            timeoutMs: PHASE_TIMEOUT_MS,
          })
        : null;

    // 6. Acceptance, last and with the worker stopped. Accepting is the API's work (the body, validation, the
    // store, the batch workflow's start); a running batch's first step starts a page of payouts at once, before
    // any stop can reach it, and those would run under the next measurement. Each accepted batch is then stopped.
    await stopChild(worker, 30_000);
    const accept = async (items: number, format: AcceptanceFormat): Promise<AcceptanceResult> => {
      process.stderr.write(`bench: accepting ${items} items as ${format}\n`);
      const result = await measureAcceptance(engineApi, { items, format, healthzUrl: `${engineUrl}/healthz` });
      await batchHandle(temporal.client.client, result.batchId).terminate('bench: acceptance measured');
      return result;
    };
    const accept10k = await accept(10_000, 'json');
    const acceptCsv = await accept(sizes.BENCH_ACCEPT_ITEMS, 'csv');
    const acceptJson = await accept(sizes.BENCH_ACCEPT_ITEMS, 'json');
    const apiRss = peakRssBytes(stack.api.pid ?? -1);
    const acceptanceFigures = (result: AcceptanceResult) => ({
      acceptMs: Math.round(result.acceptMs),
      healthzMaxMs: result.healthz.maxMs,
      healthzAnswers: result.healthz.answers,
    });

    const { ratioAtLeast0_85, ...yardstick } = await yardstickAfter();
    const report = {
      machine: machine(),
      settings: {
        payouts: sizes.BENCH_PAYOUTS,
        window,
        callbackDelayMs: sizes.BENCH_CALLBACK_DELAY_MS,
        pacedSeconds: sizes.BENCH_PACED_SECONDS,
        openPayouts: sizes.BENCH_OPEN_PAYOUTS,
      },
      cpuMsPerPayout,
      ...yardstick,
      payoutsPerSecond: Number(engine.perSecond.toFixed(1)),
      throughputRatio: Number((engine.perSecond / yardstick.minimalPayouts.perSecond).toFixed(2)),
      latencyAt80Percent: {
        rate: paced.rate,
        payouts: paced.payouts,
        p50: paced.latencyMs.p50,
        p99: paced.latencyMs.p99,
      },
      submitLatencyMs: paced.submitLatencyMs,
      callbackToFinalMs: paced.callbackToFinalMs,
      openWorkflows,
      costPerMillionPayouts: Number((engineMsTotal / 3.6).toFixed(1)),
      latencyMs: engine.latencyMs,
      payoutLatencyMs: engine.payoutLatencyMs,
      perPayout: engine.perPayout,
      // How the batch's payouts took their first workflow task: eagerly, or dispatched.
      firstTasks,
      // The batch workflow of the run itself, all its runs: its own traffic beside its payouts'.
      batchHistory,
      completed: engine.completed,
      engineSeconds: Number(engine.seconds.toFixed(1)),
      chargeCreation: charges,
      accept10kMs: Math.round(accept10k.acceptMs),
      acceptance: {
        items: sizes.BENCH_ACCEPT_ITEMS,
        csv: acceptanceFigures(acceptCsv),
        json: acceptanceFigures(acceptJson),
      },
      peakRssMb: { worker: mb(workerRss), api: mb(apiRss) },
      cpuSeconds: engineCpuUsed,
      serverStorePerWorkflow: engineStore,
      productionPath,
      targets: {
        engineAtMost36Ms: engineMsTotal <= TARGET_ENGINE_MS,
        ratioAtLeast0_85,
        latencyAt80PercentP99Under2s: paced.latencyMs.p99 <= 2_000,
        accept10kUnder2s: accept10k.acceptMs < 2_000,
        chargeCreationP99Under2s: charges.latencyMs.p99 < 2_000,
        healthzUnder100msWhileAccepting: Math.max(acceptCsv.healthz.maxMs, acceptJson.healthz.maxMs) < 100,
        // The median of the sampled payouts completed by their callback (perPayout.events); perPayout.maxEvents and
        // timedOutWorkflowTasks, printed beside it, show the payouts whose first task timed out and ran again.
        callbackPayoutAtMost16Events: engine.perPayout.sampled > 0 && engine.perPayout.events <= 16,
        callbackPayoutAtMost2WorkflowTasks: engine.perPayout.sampled > 0 && engine.perPayout.workflowTasks <= 2,
        workerRssUnder400Mb: workerRss !== undefined && workerRss < 400 * 1024 * 1024,
        [`accept${sizes.BENCH_ACCEPT_ITEMS}ItemsUnder5s`]: Math.max(acceptCsv.acceptMs, acceptJson.acceptMs) < 5_000,
      },
    };
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
