/**
 * The stack a chaos run kills: a Temporal dev server, the sandbox, a worker and the engine API, each its
 * own process under a Supervisor, in a throwaway data folder; with `store: 'postgres'` the engine's
 * batch store (and webhook endpoints) on a PostgreSQL of its own, a part that is killed too. Every state
 * that must survive a SIGKILL lives in a file there: Temporal's SQLite file, the sandbox's, the batch
 * store's. The engine's waits are shortened (callback wait, polling, review deadline, sandbox settlement,
 * merchant webhook retries) so that a trial of a few hundred payouts ends within a minute and review
 * deadlines elapse within it. The same interface fronts the cluster (cluster-chaos-stack.ts).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config/env';
import { freePort } from '../../src/net/free-port';
import { freeStackPorts, localStackEnv } from '../stack/local-stack-env';
import { processGone } from '../stack/child-services';
import { launchLoggedService } from '../stack/logged-service';
import { postgresPart } from '../stack/postgres-part';
import { temporalCliPath } from '../temporal/binaries';
import { startDevServer } from '../temporal/dev-server';
import { pollUntil } from '../../src/util/poll';
import { Supervisor, type Part, type Running } from './supervisor';

/** Every part a run can kill; a stack has those of its kind (`postgres` only on a PostgreSQL store). */
export const COMPONENTS = ['worker', 'api', 'sandbox', 'temporal', 'postgres'] as const;
export type ComponentName = (typeof COMPONENTS)[number];
/** The parts of the default stack, in the order the plan draws from (the seed's plans depend on it). */
export const DEV_SERVER_COMPONENTS = [
  'worker',
  'api',
  'sandbox',
  'temporal',
] as const satisfies readonly ComponentName[];

/** The engine's and the sandbox's timing in the chaos stack: short enough for a trial, as in production otherwise. */
export const CHAOS_TIMING = {
  PAYOUT_CALLBACK_WAIT_MS: '2000',
  PAYOUT_POLL_INITIAL_MS: '500',
  PAYOUT_POLL_MAX_MS: '2000',
  PAYOUT_REVIEW_AFTER_MS: '15000',
  // Longer than one activity attempt lost with a killed worker (its 30 s start-to-close) and its retry.
  PAYOUT_SUBMIT_DEADLINE_MS: '75000',
  PAYMENT_API_TIMEOUT_MS: '3000',
  TEMPORAL_CALL_DEADLINE_MS: '3000',
  SANDBOX_SETTLE_MS: '200',
  SANDBOX_CALLBACK_RETRY_BASE_MS: '200',
  BATCH_POLL_MS: '250',
  // Charges: a late payment counts within two minutes of the expiry (a trial's length), not a day.
  CASH_IN_LATE_PAYMENT_WINDOW_MS: '120000',
  // A checkout nobody pays expires within a trial; an authorization whose answer was lost goes to review as soon.
  CARD_CHECKOUT_TTL_MS: '60000',
  CARD_AUTHORIZE_DEADLINE_MS: '60000',
  // Infractions are resolved by the run's own admin call, never by the sandbox's timer.
  SANDBOX_INFRACTION_RESOLVE_MS: '0',
  MERCHANT_WEBHOOK_RETRY_INITIAL_MS: '500',
  MERCHANT_WEBHOOK_RETRY_MAX_MS: '2000',
  // The run's flapping receiver listens on loopback.
  WEBHOOK_ALLOW_LOOPBACK: 'true',
} as const;

export interface ChaosStack {
  config: Config;
  engineUrl: string;
  sandboxUrl: string;
  /** What the server is: `dev-server` (SQLite) or `cluster` (the Temporal server on PostgreSQL). */
  temporal: 'dev-server' | 'cluster';
  /** Where the batch store is. */
  store: 'sqlite' | 'postgres';
  /** The parts this stack has, the ones the plan kills. */
  components: readonly ComponentName[];
  parts: Readonly<Partial<Record<ComponentName, Part>>>;
  /** Faults the sandbox holds in memory: set again on it after each of its restarts. */
  setFaults(faults: unknown): Promise<void>;
  clearFaults(): Promise<void>;
  /** Every part started (waiting for those coming back) and the API ready (Temporal and the provider reachable). */
  allUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface ChaosStackOptions {
  dataDir: string;
  /** false: the sandbox makes a second operation for a repeated external_id, so a second POST is a second debit. */
  deduplicate: boolean;
  /** `postgres`: the batch store on a PostgreSQL of the stack's own, killed and restarted like the rest. */
  store: 'sqlite' | 'postgres';
  /** A prebuilt workflow bundle: a restarted worker polls within seconds instead of bundling again. */
  workflowBundle: string;
  log: (line: string) => void;
}

const BATCH_DATABASE = 'batches';

/** The sandbox's faults (`PUT`/`DELETE /sandbox/faults`, admin token), remembered: the sandbox holds them in memory, so each of its restarts needs them again. */
export function sandboxFaults(
  sandboxUrl: string,
  adminToken: string,
): { set(faults: unknown): Promise<void>; clear(): Promise<void>; reapply(): Promise<void> } {
  let current: unknown;
  const send = async (method: 'PUT' | 'DELETE', body?: unknown): Promise<void> => {
    const response = await fetch(`${sandboxUrl}/sandbox/faults`, {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok)
      throw new Error(`sandbox ${method} /sandbox/faults answered ${response.status}: ${await response.text()}`);
  };
  return {
    async set(faults) {
      current = faults;
      await send('PUT', faults);
    },
    async clear() {
      current = undefined;
      await send('DELETE');
    },
    async reapply() {
      if (current !== undefined) await send('PUT', current);
    },
  };
}

/** Until the engine API says it is ready (Temporal and the provider reachable). */
export const engineReady = (engineUrl: string, timeoutMs = 180_000): Promise<true> =>
  pollUntil(
    async () => ((await fetch(`${engineUrl}/readyz`, { signal: AbortSignal.timeout(5_000) })).ok ? true : undefined),
    {
      timeoutMs,
      intervalMs: 500,
      description: 'the engine API to be ready',
    },
  );

export async function startChaosStack(options: ChaosStackOptions): Promise<ChaosStack> {
  const logDir = path.join(options.dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const ports = { ...(await freeStackPorts()), postgres: await freePort() };
  const postgres =
    options.store === 'postgres'
      ? postgresPart({ dir: path.join(options.dataDir, 'postgres'), port: ports.postgres, durable: true })
      : undefined;
  const engineUrl = `http://127.0.0.1:${ports.engine}`;
  const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Free ports for everything, the worker's metrics too: a chaos run beside a running stack (or the tests) meets no taken port.
    ...localStackEnv({ dataDir: options.dataDir, temporalAddress: `127.0.0.1:${ports.temporal}`, ports }),
    SANDBOX_DB: path.join(options.dataDir, 'sandbox.sqlite'),
    ENGINE_RATE_LIMIT_PER_MINUTE: '1000000',
    // The MED sync has nothing to do with payouts: out of the way.
    MED_SYNC_INTERVAL_MS: '86400000',
    WORKFLOW_BUNDLE_PATH: options.workflowBundle,
    LOG_LEVEL: 'warn',
    ...CHAOS_TIMING,
    SANDBOX_DEDUPLICATE: String(options.deduplicate),
    ...(postgres ? { DATABASE_URL: postgres.url(BATCH_DATABASE) } : {}),
  };
  const config = loadConfig(env);
  const binary = temporalCliPath();
  const logFile = (name: string) => path.join(logDir, `${name}.log`);

  const faults = sandboxFaults(sandboxUrl, config.SANDBOX_ADMIN_TOKEN);

  const launchers: Record<(typeof DEV_SERVER_COMPONENTS)[number], () => Promise<Running>> = {
    temporal: async () => {
      const server = await startDevServer({
        binary,
        port: ports.temporal,
        metricsPort: ports.temporalMetrics,
        dbFile: path.join(options.dataDir, 'temporal.sqlite'),
        stdio: 'ignore',
        startupTimeoutMs: 120_000,
      });
      return {
        pid: server.pid,
        exited: processGone(server.pid),
        kill: () => process.kill(server.pid, 'SIGKILL'),
        stop: () => server.stop(),
      };
    },
    sandbox: async () => {
      const running = await launchLoggedService('sandbox', env, logFile('sandbox'), {
        healthUrl: `${sandboxUrl}/healthz`,
      });
      try {
        await faults.reapply();
      } catch (error) {
        running.kill();
        await running.exited;
        throw error;
      }
      return running;
    },
    worker: () =>
      launchLoggedService('worker', { ...env, LOG_LEVEL: 'info' }, logFile('worker'), { marker: '"worker.started"' }),
    api: () => launchLoggedService('api', env, logFile('api'), { healthUrl: `${engineUrl}/healthz` }),
  };
  const parts: Partial<Record<ComponentName, Supervisor>> = Object.fromEntries(
    DEV_SERVER_COMPONENTS.map((name) => [name, new Supervisor(name, launchers[name], options.log)]),
  );
  if (postgres) parts.postgres = new Supervisor('postgres', () => postgres.launch(), options.log);
  const components = COMPONENTS.filter((name) => parts[name] !== undefined);

  const stop = async (): Promise<void> => {
    for (const name of ['api', 'worker', 'sandbox', 'temporal', 'postgres'] as const) await parts[name]?.stop();
  };

  const allUp = async (): Promise<void> => {
    await Promise.all(components.map((name) => parts[name]?.start() ?? Promise.resolve()));
    await engineReady(engineUrl);
  };

  try {
    if (postgres && parts.postgres) {
      await parts.postgres.start();
      await postgres.current()?.ensureDatabase(BATCH_DATABASE);
    }
    for (const name of ['temporal', 'sandbox', 'worker', 'api'] as const) await parts[name]?.start();
    await allUp();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    config,
    engineUrl,
    sandboxUrl,
    temporal: 'dev-server',
    store: options.store,
    components,
    parts,
    setFaults: (next) => faults.set(next),
    clearFaults: () => faults.clear(),
    allUp,
    stop,
  };
}
