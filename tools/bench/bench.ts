/**
 * `npm run bench`: starts its own stacks on the embedded defaults (Temporal dev server, sandbox settling at
 * once, worker, engine API, each in its own process, in a temporary data folder) and measures, in one run:
 *
 * 0. the production path (production-path.ts), on a stack whose provider calls back BENCH_CALLBACK_DELAY_MS after
 *    each request: the first charge and payout after its cold start, then BENCH_COUNTED_PAYOUTS single payouts'
 *    persisted transitions, visibility writes, Temporal Cloud actions, history events and workflow tasks, with
 *    issue 41's targets as booleans (BENCH_PRODUCTION_PATH_ONLY=1: this phase alone);
 * 1. the yardstick: BENCH_PAYOUTS bare payouts (bare-payout-workflow.ts: a payout's start request, markers,
 *    upserts, timer and callback signal, no engine code) on a fresh Temporal database;
 * 2. the engine: one batch of BENCH_PAYOUTS payouts through the API, the worker, the sandbox and its
 *    callbacks, on another fresh database, with the events, workflow tasks and waits of sampled histories;
 * 3. latency at 80 % of the engine's rate: single payouts paced for BENCH_PACED_SECONDS;
 * 4. PIX charge creation (BENCH_CHARGES, one after another);
 * 5. the worker's memory with BENCH_OPEN_PAYOUTS payouts waiting for their callback;
 * 6. with the worker stopped, the acceptance of a 10,000-item batch and of a BENCH_ACCEPT_ITEMS batch as CSV and
 *    as JSON with the longest /healthz answer meanwhile;
 * 7. with the engine's stack stopped, the yardstick again on a fresh database: the bare figures are both phases'.
 *
 * For phases 1, 2 and 7, the CPU every process used per item (the bench's own client included), and what the
 * Temporal server's store did per item (its own metrics). Prints one JSON document, the targets of issue 29
 * as booleans. The engine worker runs a prebuilt workflow bundle, as production images do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { EngineClient } from '../../src/client';
import { measureChargeCreation } from './charge-latency';
import { measureAcceptance, type AcceptanceFormat, type AcceptanceResult } from './acceptance';
import { measureBarePayouts } from './bare-run';
import { BARE_TASK_QUEUE, startBarePhase } from './bare-phase';
import { processCpu, type CpuReading } from './cpu-use';
import { batchHistoryCost, measureEngine, payoutHistoryCost } from './engine-run';
import { measureOpenWorkflows } from './open-workflows';
import { measurePaced } from './paced-run';
import { persistencePerWorkflow, readPersistenceCounters } from './server-persistence';
import { MAX_BATCH_ITEMS } from '../../src/batches/batch-request';
import { loadConfig } from '../../src/config/env';
import { payoutTiming } from '../../src/payouts/payout-input';
import { freeStackPorts, localStackEnv } from '../stack/local-stack-env';
import { peakRssBytes, runToExit, stopChild } from '../stack/child-services';
import { freshTemporal, startEngineStack } from './engine-stack';
import { measureProductionPath, type ProductionPathResult } from './production-path';
import { batchHandle, batchWorkflowId } from '../../src/lifecycles/batch-client';

const benchEnvSchema = z.object({
  BENCH_PAYOUTS: z.coerce.number().int().min(1).default(10_000),
  BENCH_CONCURRENCY: z.coerce.number().int().min(1).optional(),
  BENCH_PACED_SECONDS: z.coerce.number().int().min(1).default(60),
  BENCH_OPEN_PAYOUTS: z.coerce.number().int().min(0).default(10_000),
  BENCH_ACCEPT_ITEMS: z.coerce.number().int().min(1).max(MAX_BATCH_ITEMS).default(MAX_BATCH_ITEMS),
  BENCH_CHARGES: z.coerce.number().int().min(1).default(100),
  // The provider's callback comes this long after its request: past the payout's first workflow task, as in production.
  BENCH_CALLBACK_DELAY_MS: z.coerce.number().int().min(0).default(2_000),
  BENCH_COUNTED_PAYOUTS: z.coerce.number().int().min(1).default(20),
  // Only the production-path phase (cold start and counters): a run of about a minute.
  BENCH_PRODUCTION_PATH_ONLY: z.stringbool().default(false),
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
    // The other phases' callbacks come within milliseconds, so the timer's length changes nothing in them.
    PAYOUT_CALLBACK_WAIT_MS: String(PHASE_TIMEOUT_MS),
    LOG_LEVEL: 'warn',
  };
  const config = loadConfig(baseEnv);
  const window = sizes.BENCH_CONCURRENCY ?? config.BATCH_WINDOW;
  const load = () => os.loadavg().map((value) => Number(value.toFixed(2)));
  const loadAtStart = load();
  const stops: (() => Promise<void>)[] = [];
  try {
    const bundle = path.join(dataDir, 'workflow-bundle.js');
    await runToExit('build-workflows', [bundle], baseEnv);
    // 0. The production path: the first requests after a cold start, then what a payout costs the server, counted.
    process.stderr.write(
      `bench: production path, callbacks ${sizes.BENCH_CALLBACK_DELAY_MS} ms after the request, ${sizes.BENCH_COUNTED_PAYOUTS} payouts counted\n`,
    );
    const productionPath: ProductionPathResult = await measureProductionPath({
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

    // 1. The yardstick, on a database of its own; measured again once the engine's stack has stopped (7.).
    const bareYardstick = async (phase: 'before' | 'after') => {
      process.stderr.write(`bench: ${sizes.BENCH_PAYOUTS} bare payouts, ${window} in flight (${phase} the engine)\n`);
      const bareTemporal = await freshTemporal(path.join(dataDir, `bare-${phase}`), baseEnv, ports);
      stops.push(
        () => bareTemporal.server.stop(),
        () => bareTemporal.client.close(),
      );
      const bare = await startBarePhase(bareTemporal.env);
      stops.push(() => bare.stop());
      const bareCpu = processCpu({
        temporal: bareTemporal.server.pid,
        worker: bare.worker.pid,
        signaller: bare.signaller.pid,
        client: process.pid,
      });
      const storeBefore = await readPersistenceCounters(bareTemporal.metricsUrl);
      const run = await measureBarePayouts(bareTemporal.client.client, {
        taskQueue: BARE_TASK_QUEUE,
        payouts: sizes.BENCH_PAYOUTS,
        window,
        timing: payoutTiming(config),
        settled: bare.settled,
        timeoutMs: PHASE_TIMEOUT_MS,
      });
      const cpu = bareCpu();
      const store = persistencePerWorkflow(
        storeBefore,
        await readPersistenceCounters(bareTemporal.metricsUrl),
        sizes.BENCH_PAYOUTS,
      );
      // Its events, read as the engine's are: the proof that the yardstick has a payout's shape.
      const perPayout = await payoutHistoryCost(bareTemporal.client.client, run.workflowIds);
      for (const stop of stops.splice(0).reverse()) await stop();
      return { cpu, run, store, perPayout };
    };
    const bareBefore = await bareYardstick('before');

    // 2. The engine, on a fresh database.
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
    const engineCpu = processCpu({
      temporal: temporal.server.pid,
      worker: worker.pid,
      api: stack.api.pid,
      sandbox: stack.sandbox.pid,
      client: process.pid,
    });
    const engineStoreBefore = await readPersistenceCounters(temporal.metricsUrl);
    const engine = await measureEngine({
      api: engineApi,
      client: temporal.client.client,
      payouts: sizes.BENCH_PAYOUTS,
      timeoutMs: PHASE_TIMEOUT_MS,
    });
    const engineCpuUsed = engineCpu();
    const engineStore = persistencePerWorkflow(
      engineStoreBefore,
      await readPersistenceCounters(temporal.metricsUrl),
      engine.completed,
    );
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

    // 7. The yardstick again, the engine's stack stopped: the box's speed drifts within minutes, enough for one short
    // bare phase alone to move the ratio between runs of the same code (docs/benchmarks.md).
    for (const stop of stops.splice(0).reverse()) await stop();
    const bareAfter = await bareYardstick('after');

    const perItem = (reading: CpuReading, items: number) =>
      Object.fromEntries(
        Object.entries(reading).map(([name, seconds]) => [
          name,
          seconds === null ? null : Number(((seconds * 1_000) / items).toFixed(1)),
        ]),
      );
    const sum = (values: (number | null | undefined)[]) =>
      Number(values.reduce<number>((total, value) => total + (value ?? Number.NaN), 0).toFixed(1));
    const engineMs = perItem(engineCpuUsed, engine.completed);
    const engineTotal = sum([engineMs.temporal, engineMs.worker, engineMs.api]);
    // The yardstick is both bare phases together: their CPU over their payouts.
    const bareCpuUsed: CpuReading = Object.fromEntries(
      Object.entries(bareBefore.cpu).map(([name, seconds]) => {
        const after = bareAfter.cpu[name];
        return [name, seconds === null || after === null || after === undefined ? null : seconds + after];
      }),
    );
    const bareTotalOf = (ms: ReturnType<typeof perItem>) => sum([ms.temporal, ms.worker, ms.signaller, ms.client]);
    const bareMs = perItem(bareCpuUsed, bareBefore.run.payouts + bareAfter.run.payouts);
    const bareTotal = bareTotalOf(bareMs);
    const barePerSecond = (bareBefore.run.perSecond + bareAfter.run.perSecond) / 2;
    const ratio = Number((bareTotal / engineTotal).toFixed(2));
    const report = {
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? 'unknown',
        memoryGb: Math.round(os.totalmem() / 1024 ** 3),
        node: process.version,
        loadAverage: { atStart: loadAtStart, atEnd: load() },
      },
      settings: {
        payouts: sizes.BENCH_PAYOUTS,
        window,
        pacedSeconds: sizes.BENCH_PACED_SECONDS,
        openPayouts: sizes.BENCH_OPEN_PAYOUTS,
      },
      cpuMsPerPayout: {
        temporal: engineMs.temporal,
        worker: engineMs.worker,
        api: engineMs.api,
        sandbox: engineMs.sandbox,
        engine: engineTotal,
        benchClient: engineMs.client,
      },
      cpuMsPerBarePayout: {
        temporal: bareMs.temporal,
        worker: bareMs.worker,
        signaller: bareMs.signaller,
        client: bareMs.client,
        total: bareTotal,
        before: bareTotalOf(perItem(bareBefore.cpu, bareBefore.run.payouts)),
        after: bareTotalOf(perItem(bareAfter.cpu, bareAfter.run.payouts)),
      },
      ratio,
      payoutsPerSecond: Number(engine.perSecond.toFixed(1)),
      barePayoutsPerSecond: Number(barePerSecond.toFixed(1)),
      throughputRatio: Number((engine.perSecond / barePerSecond).toFixed(2)),
      latencyAt80Percent: {
        rate: paced.rate,
        payouts: paced.payouts,
        p50: paced.latencyMs.p50,
        p99: paced.latencyMs.p99,
      },
      submitLatencyMs: paced.submitLatencyMs,
      callbackToFinalMs: paced.callbackToFinalMs,
      openWorkflows,
      costPerMillionPayouts: Number((engineTotal / 3.6).toFixed(1)),
      latencyMs: engine.latencyMs,
      payoutLatencyMs: engine.payoutLatencyMs,
      perPayout: engine.perPayout,
      // The batch workflow of the run itself, all its runs: its own traffic beside its payouts'.
      batchHistory,
      perBarePayout: {
        events: bareBefore.perPayout.events,
        workflowTasks: bareBefore.perPayout.workflowTasks,
        eventTypes: bareBefore.perPayout.eventTypes,
      },
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
      cpuSeconds: { bare: bareCpuUsed, engine: engineCpuUsed },
      serverStorePerWorkflow: { bare: bareBefore.store, bareAfter: bareAfter.store, engine: engineStore },
      productionPath,
      targets: {
        engineAtMost36Ms: engineTotal <= TARGET_ENGINE_MS,
        ratioAtLeast0_9: ratio >= 0.9,
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
