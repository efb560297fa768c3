/**
 * The whole engine in one test process, every part real: the sandbox over HTTP, the engine API over
 * HTTP, a worker on the shared Temporal dev server, the engine's own wiring (config, client, activities).
 * The worker can be stopped and started again mid-test; the workflow bundle is the run's (global-setup.ts), or
 * built once per file outside jest's run.
 * With `externalProvider`, no sandbox: the engine talks to the provider at that URL, configured by settings alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import path from 'node:path';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { readFile } from 'node:fs/promises';
import { bundleWorkflowCode, type NativeConnection, type WorkflowBundle } from '@temporalio/worker';
import type { ReadModel } from '../../src/read-model/read-model';
import type { IntentStore } from '../../src/intents/intent-store';
import { engineApp, engineWorkers, openEngine } from '../../src/engine/engine';
import { apiKeysText } from '../../src/config/api-keys';
import type { Config } from '../../src/config/env';
import { createLogger } from '../../src/logging/logger';
import { formatPixCopyPasteFields } from '../../src/payment-api/schemas/pix-copy-paste';
import { startMetricsServer } from '../../src/metrics/metrics-http';
import { freePort } from '../../src/net/free-port';
import { createSandbox, type Sandbox } from '../../sandbox';
import { shieldKeys } from '../../sandbox/products/card-payments/shield/card-token';
import { ensureMedSyncSchedule } from '../../src/lifecycles/med-sync-schedule';
import { connectClient, type TemporalClientHandle } from '../../src/temporal/connection';
import { connectWorker, type EngineWorkerOptions } from '../../src/worker/create-worker';
import type { WorkerGroup } from '../../src/worker/worker-group';
import {
  TRACED_WORKFLOW_BUNDLE_OPTIONS,
  WORKFLOW_BUNDLE_OPTIONS,
  tracedBundlePath,
} from '../../src/worker/workflow-source';
import type { Tracing } from '../../src/telemetry/tracing';
import { runBundlePath } from '../setup/run-bundle';
import { testConfig } from './temporal';
import { httpCall, type HttpAnswer } from './http';
import { startProviderProxy, type ProviderProxy } from './provider-proxy';
import { forThisFile } from './for-this-file';
import { SANDBOX_CRYPTO_WITHDRAW_PATH } from '../../tools/stack/sandbox-provider-env';

let bundle: Promise<WorkflowBundle> | undefined;
let tracedBundle: Promise<WorkflowBundle> | undefined;
const quiet = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  log: () => undefined,
};

async function loadOrBuild(
  prebuilt: string | undefined,
  options: typeof WORKFLOW_BUNDLE_OPTIONS,
): Promise<WorkflowBundle> {
  if (prebuilt) return { code: await readFile(prebuilt, 'utf8') };
  return { code: (await bundleWorkflowCode({ ...options, logger: quiet })).code };
}

export function engineBundle(): Promise<WorkflowBundle> {
  bundle ??= loadOrBuild(runBundlePath(), WORKFLOW_BUNDLE_OPTIONS);
  return bundle;
}

/** The bundle a worker with tracing on runs (the tracing interceptors inside). */
function tracedEngineBundle(): Promise<WorkflowBundle> {
  const prebuilt = runBundlePath();
  tracedBundle ??= loadOrBuild(prebuilt && tracedBundlePath(prebuilt), TRACED_WORKFLOW_BUNDLE_OPTIONS);
  return tracedBundle;
}

export type { HttpAnswer } from './http';

/** A call to the engine or the sandbox with a bearer token (the API key or the sandbox's admin token). */
function call<T>(url: string, init: { method: string; token: string; body?: unknown }): Promise<HttpAnswer<T>> {
  return httpCall<T>(url, {
    method: init.method,
    headers: { authorization: `Bearer ${init.token}` },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

export interface EngineHarness {
  config: Config;
  apiUrl: string;
  /** The in-process API's `/metrics`, on METRICS_PORT (never on the API's port). */
  metricsUrl: string;
  sandboxUrl: string;
  /** The provider the engine talks to (the sandbox, or the external provider), without the recording proxy. */
  providerUrl: string;
  temporal: TemporalClientHandle;
  /** The engine's intent store (the one the in-process worker claims in). */
  intents: IntentStore;
  /** The engine's read model (lists, sums), on the batch store's database. */
  readModel: ReadModel;
  /** With `providerProxy`: every request the engine (any of its processes) sent the provider. */
  provider?: ProviderProxy;
  /** Engine API call with the API key. */
  api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T>>;
  /** Sandbox admin call with the admin token (refused with an external provider: it has no sandbox admin API). */
  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T>>;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  /** `npm run worker` as its own process, with this harness's configuration and `env`; resolves once it polls. */
  spawnWorkerProcess(env?: Record<string, string>): Promise<ChildProcess>;
  /** `npm run api` as its own process on `port`, with this harness's configuration and `env`; resolves once it listens (rejects with its output if it exits). */
  spawnApiProcess(port: number, env?: Record<string, string>): Promise<ChildProcess>;
  close(): Promise<void>;
}

/** The environment that reproduces a config in another process. */
function configToEnv(config: Config): Record<string, string> {
  // The settings parsed into objects go back to their text: `<agrees>,<contests>`, `field=name|name,…`, `<part>=<name>,…`, `name:secret:scope+scope,…`.
  const {
    INFRACTION_ANALISE_VALUES: words,
    MED_RECORD_FIELDS: recordFields,
    PIX_COPY_PASTE_REQUEST_FIELDS: copyPasteFields,
    ENGINE_API_KEYS: apiKeys,
    ...others
  } = config;
  const {
    WITHDRAWAL_CALLBACK_FIELDS,
    PIX_COPY_PASTE_CALLBACK_FIELDS,
    CRYPTO_CALLBACK_FIELDS,
    CASH_IN_CALLBACK_FIELDS,
    CARD_CALLBACK_FIELDS,
    ...rest
  } = others;
  const names = (fields: Readonly<Record<string, readonly string[]>>): string =>
    Object.entries(fields)
      .map(([field, given]) => `${field}=${given.join('|')}`)
      .join(',');
  const env: Record<string, string> = {
    WITHDRAWAL_CALLBACK_FIELDS: names(WITHDRAWAL_CALLBACK_FIELDS),
    PIX_COPY_PASTE_CALLBACK_FIELDS: names(PIX_COPY_PASTE_CALLBACK_FIELDS),
    CRYPTO_CALLBACK_FIELDS: names(CRYPTO_CALLBACK_FIELDS),
    CASH_IN_CALLBACK_FIELDS: names(CASH_IN_CALLBACK_FIELDS),
    CARD_CALLBACK_FIELDS: names(CARD_CALLBACK_FIELDS),
    INFRACTION_ANALISE_VALUES: `${words.ACEITA},${words.NEGADA}`,
    MED_RECORD_FIELDS: names(recordFields),
    PIX_COPY_PASTE_REQUEST_FIELDS: formatPixCopyPasteFields(copyPasteFields),
    ENGINE_API_KEYS: apiKeysText(apiKeys),
  };
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    env[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return env;
}

/** One of the engine's CLI entry points as its own process; resolves once its log shows `readyEvent`. */
async function spawnEngineProcess(
  config: Config,
  spawned: ChildProcess[],
  script: string,
  readyEvent: string,
  overrides: Record<string, string>,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', '..', 'src', 'cli', script)], {
    env: {
      ...process.env,
      // The run's prebuilt bundle unless the test names its own, as production runs one: a worker that bundles at
      // start spends seconds of CPU on it.
      ...(runBundlePath() ? { WORKFLOW_BUNDLE_PATH: runBundlePath() } : {}),
      ...configToEnv(config),
      LOG_LEVEL: 'info',
      ...overrides,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await pollUntil(
    () => {
      if (child.exitCode !== null) throw new StopPolling(`${script} exited: ${output}`);
      return output.includes(readyEvent) ? true : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 100, description: `${script} to start` },
  );
  return child;
}

export interface HarnessOptions {
  /** false: no worker in the test process; the test runs its own (spawnWorkerProcess, startWorker). */
  inProcessWorker?: boolean;
  /** Every log line of the API, the in-process worker and the sandbox, at debug level (default: errors on stdout). */
  logs?: (line: string) => void;
  /** The engine reaches the sandbox through a proxy that records each request (`harness.provider`). */
  providerProxy?: boolean;
  /** The sandbox's clock (default: the machine's), for records whose times the test chooses (an infraction's deadline). */
  sandboxNow?: () => number;
  /** Settings of the engine only, from what the sandbox became once started (its shield key, made on its first start). */
  engineSettings?: (sandbox: { sandboxUrl: string; shieldPublicKeyPem: string }) => Record<string, string>;
  /**
   * The base URL of a provider running outside the harness (test/doubles/provider-double.ts, or a provider's own
   * test environment): no sandbox is started, and the engine reaches that provider as an integrator configures it,
   * by the harness's `overrides` alone (credentials, callback signatures, the shield's URLs and key, ...).
   */
  externalProvider?: string;
  /** Tracing on in the test process (startTracing): the API's server spans, the client's and the in-process worker's interceptors, the traced bundle. */
  tracing?: Tracing;
  /** The in-process engine worker's slots (the webhook deliveries' worker keeps MERCHANT_WEBHOOK_MAX_CONCURRENT_DELIVERIES). */
  workerTuning?: EngineWorkerOptions['tuning'];
}

/**
 * Whether the sandbox of this test run creates crypto withdrawals: the seed profile, keeping to the spec, shows no
 * route for it, so the engine's crypto rail is off against it (as it is against any provider without one).
 */
export const SANDBOX_SERVES_CRYPTO = process.env.SANDBOX_PROFILE !== 'seed';

/**
 * SANDBOX_PROFILE=seed in the test's environment (`npm run test:seed`, or a file under test/seed-profile/) runs the
 * harness against the spec-only sandbox, with the engine configured for it: unsigned callbacks taken as hints.
 */
function seedProfileSettings(): Record<string, string> {
  if (process.env.SANDBOX_PROFILE !== 'seed') return {};
  return { SANDBOX_PROFILE: 'seed', PROVIDER_CALLBACK_SIGNATURES: 'optional' };
}

/** The engine's settings that come from the sandbox once started: a provider without GET /shield/public-key gives the engine its key, as the real one's would. */
function sandboxEngineSettings(
  sandbox: Sandbox,
  settings: Record<string, string>,
  sandboxPort: number,
  options: HarnessOptions,
): Record<string, string> {
  const publicKeyPem = shieldKeys(sandbox.ctx.db).publicKeyPem;
  return {
    ...(sandbox.ctx.profile.servesPublicKey || settings.PAYMENT_SHIELD_PUBLIC_KEY !== undefined
      ? {}
      : { PAYMENT_SHIELD_PUBLIC_KEY: publicKeyPem }),
    ...options.engineSettings?.({ sandboxUrl: `http://127.0.0.1:${sandboxPort}`, shieldPublicKeyPem: publicKeyPem }),
  };
}

export async function startEngineHarness(
  overrides: Record<string, string> = {},
  options: HarnessOptions = {},
): Promise<EngineHarness> {
  const [sandboxPort, apiPort] = [await freePort(), await freePort()];
  // A worker process spawned by a test serves its metrics on ports of its own: tests run side by side.
  const [workerMetricsPort, workerSdkMetricsPort, apiMetricsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const providerUrl = options.externalProvider ?? `http://127.0.0.1:${sandboxPort}`;
  const provider = options.providerProxy ? await startProviderProxy(providerUrl) : undefined;
  const settings: Record<string, string> = {
    ...(options.externalProvider ? {} : seedProfileSettings()),
    SANDBOX_PORT: String(sandboxPort),
    ENGINE_PORT: String(apiPort),
    PAYMENT_API_BASE_URL: provider?.url ?? providerUrl,
    ...(options.externalProvider
      ? {}
      : { PAYMENT_API_CRYPTO_WITHDRAW_PATH: SANDBOX_SERVES_CRYPTO ? SANDBOX_CRYPTO_WITHDRAW_PATH : '' }),
    ENGINE_PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
    SANDBOX_SETTLE_MS: '200',
    SANDBOX_CALLBACK_RETRY_BASE_MS: '100',
    PAYOUT_CALLBACK_WAIT_MS: '3000',
    PAYOUT_POLL_INITIAL_MS: '300',
    PAYOUT_POLL_MAX_MS: '1000',
    PAYMENT_API_TIMEOUT_MS: '2000',
    // One Schedule per harness (they share a server); an hour apart, so a test runs the sync when it wants.
    MED_SYNC_SCHEDULE_ID: `med-sync-${sandboxPort}`,
    MED_SYNC_INTERVAL_MS: '3600000',
    WORKER_METRICS_PORT: String(workerMetricsPort),
    WORKER_SDK_METRICS_PORT: String(workerSdkMetricsPort),
    METRICS_PORT: String(apiMetricsPort),
    ...overrides,
  };
  const configured = testConfig(settings);
  const logFor = (service: string) =>
    options.logs ? createLogger({ service }, 'debug', options.logs) : createLogger({ service, test: true }, 'error');
  const logger = logFor('engine-api');
  const workerLogger = logFor('worker');
  const sandbox = options.externalProvider
    ? undefined
    : createSandbox({
        config: configured,
        dbPath: ':memory:',
        logger: logFor('sandbox'),
        ...(options.sandboxNow ? { now: options.sandboxNow } : {}),
      });
  await sandbox?.start(sandboxPort);
  const engineOnly = sandbox ? sandboxEngineSettings(sandbox, settings, sandboxPort, options) : {};
  // Validated as the engine's processes validate their environment.
  const config =
    Object.keys(engineOnly).length === 0
      ? configured
      : testConfig({
          ...settings,
          TEMPORAL_TASK_QUEUE: configured.TEMPORAL_TASK_QUEUE,
          DATA_DIR: configured.DATA_DIR,
          ...engineOnly,
        });

  const temporal = await connectClient(config, options.tracing);
  const engine = await openEngine(config, logger, temporal.client);
  const app = engineApp(engine, {
    ...(config.CODEC_TOKEN ? { codecToken: config.CODEC_TOKEN } : {}),
    readiness: {},
    traceRequests: options.tracing !== undefined,
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(apiPort, '127.0.0.1', () => resolve(listening));
  });
  const metrics = await startMetricsServer({ host: '127.0.0.1', port: config.METRICS_PORT });

  const spawned: ChildProcess[] = [];
  let running: { workers: WorkerGroup; connection: NativeConnection; done: Promise<void> } | undefined;

  const harness: EngineHarness = {
    config,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    metricsUrl: `http://127.0.0.1:${metrics.port}/metrics`,
    sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
    providerUrl,
    temporal,
    intents: engine.intents,
    readModel: engine.readModel,
    ...(provider ? { provider } : {}),
    api: (method, path, body) =>
      call(`http://127.0.0.1:${apiPort}${path}`, { method, body, token: config.ENGINE_API_KEYS[0]?.secret ?? '' }),
    admin: (method, path, body) =>
      sandbox
        ? call(`http://127.0.0.1:${sandboxPort}${path}`, { method, body, token: config.SANDBOX_ADMIN_TOKEN })
        : Promise.reject(new Error(`no sandbox admin API: the engine runs against ${providerUrl}`)),
    async startWorker() {
      if (running) return;
      const connection = await connectWorker(config);
      const workers = await engineWorkers(engine, {
        connection,
        workflows: { workflowBundle: await (options.tracing ? tracedEngineBundle() : engineBundle()) },
        logger: workerLogger,
        ...(options.tracing ? { tracing: options.tracing } : {}),
        ...(options.workerTuning ? { tuning: options.workerTuning } : {}),
      });
      running = { workers, connection, done: workers.run() };
    },
    async stopWorker() {
      if (!running) return;
      const { workers, connection, done } = running;
      running = undefined;
      workers.shutdown();
      await done;
      await connection.close();
    },
    async spawnWorkerProcess(env = {}) {
      // The first worker process serves metrics on the configured ports (tests read them there); others on free ones.
      const ports: Record<string, string> = spawned.some((child) =>
        child.spawnargs.some((arg) => arg.endsWith('worker.ts')),
      )
        ? { WORKER_METRICS_PORT: String(await freePort()), WORKER_SDK_METRICS_PORT: String(await freePort()) }
        : {};
      return spawnEngineProcess(config, spawned, 'worker.ts', '"worker.started"', { ...ports, ...env });
    },
    spawnApiProcess: async (port, env = {}) =>
      spawnEngineProcess(config, spawned, 'api.ts', '"api.listening"', {
        ENGINE_PORT: String(port),
        METRICS_PORT: String(await freePort()),
        ...env,
      }),
    async close() {
      await harness.stopWorker();
      // Processes the test left running end with the harness.
      await Promise.all(
        spawned
          .filter((child) => child.exitCode === null && child.signalCode === null)
          .map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGKILL'))),
      );
      await temporal.client.schedule
        .getHandle(config.MED_SYNC_SCHEDULE_ID)
        .delete()
        .catch(() => undefined);
      // Connections still open (a browser's keep-alive) are cut, or close would wait for them.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await metrics.close();
      await temporal.close();
      await provider?.close();
      await sandbox?.stop();
      await engine.close();
    },
  };
  if (options.inProcessWorker !== false) await harness.startWorker();
  await ensureMedSyncSchedule(temporal.client, config);
  return harness;
}

/**
 * A harness for the whole test file (forThisFile) whose sandbox faults are cleared after each test: a fault one
 * test arms never reaches the next.
 */
export function engineForThisFile(overrides: Record<string, string> = {}, options: HarnessOptions = {}): EngineHarness {
  const stack = forThisFile(() => startEngineHarness(overrides, options));
  afterEach(() => stack.admin('DELETE', '/sandbox/faults'));
  return stack;
}
