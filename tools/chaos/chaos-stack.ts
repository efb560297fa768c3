/**
 * The stack a chaos run kills: a Temporal dev server, the sandbox, a worker and the engine API, each its
 * own process under a Supervisor, in a throwaway data folder. Every state that must survive a SIGKILL
 * lives in a file there: Temporal's SQLite file, the sandbox's, the batch store's. The engine's waits are
 * shortened (callback wait, polling, review deadline, sandbox settlement) so that a trial of a few hundred
 * payouts ends within a minute and review deadlines elapse within it.
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, createWriteStream, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config/env';
import { freePort } from '../../src/net/free-port';
import { freeStackPorts, localStackEnv } from '../stack/local-stack-env';
import { hasExited, spawnService, stopChild, waitHealthy, type ServiceName } from '../stack/child-services';
import { temporalCliPath } from '../temporal/binaries';
import { startDevServer } from '../temporal/dev-server';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { Supervisor, type Running } from './supervisor';

export const COMPONENTS = ['worker', 'api', 'sandbox', 'temporal'] as const;
export type ComponentName = (typeof COMPONENTS)[number];

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
} as const;

export interface ChaosStack {
  config: Config;
  engineUrl: string;
  sandboxUrl: string;
  parts: Readonly<Record<ComponentName, Supervisor>>;
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
  /** A prebuilt workflow bundle: a restarted worker polls within seconds instead of bundling again. */
  workflowBundle: string;
  log: (line: string) => void;
}

/** Resolves once `pid` no longer exists (the dev server handle reports no exit of its own). */
async function processGone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const exitOf = (child: ChildProcess): Promise<unknown> =>
  hasExited(child) ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));

/** A service of the stack, its output appended to its log file, ready once healthy or once its output shows `marker`. */
async function launchService(name: ServiceName, env: NodeJS.ProcessEnv, logFile: string, ready: { healthUrl: string } | { marker: string }): Promise<Running> {
  const fd = openSync(logFile, 'a');
  const child = spawnService(name, { env, stdio: ['ignore', 'healthUrl' in ready ? fd : 'pipe', fd] });
  closeSync(fd);
  const exited = exitOf(child);
  let seen = false;
  if ('marker' in ready && child.stdout) {
    let tail = '';
    child.stdout.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4_096);
      seen ||= tail.includes(ready.marker);
    });
    child.stdout.pipe(createWriteStream(logFile, { flags: 'a' }));
  }
  const kill = () => {
    if (!hasExited(child) && child.pid) process.kill(-child.pid, 'SIGKILL');
  };
  try {
    if ('healthUrl' in ready) await waitHealthy(ready.healthUrl, child, name);
    else {
      await pollUntil(
        () => {
          if (hasExited(child)) throw new StopPolling(`${name} exited during start-up`);
          return seen ? true : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 100, description: `${name} to start` },
      );
    }
  } catch (error) {
    kill();
    await exited;
    throw error;
  }
  return { pid: child.pid ?? -1, exited, kill, stop: () => stopChild(child, 10_000) };
}

export async function startChaosStack(options: ChaosStackOptions): Promise<ChaosStack> {
  const logDir = path.join(options.dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const ports = { temporal: await freePort(), ...(await freeStackPorts()) };
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
  };
  const config = loadConfig(env);
  const binary = temporalCliPath();
  const logFile = (name: string) => path.join(logDir, `${name}.log`);
  let faults: unknown;

  const sandboxAdmin = async (method: 'PUT' | 'DELETE', body?: unknown): Promise<void> => {
    const response = await fetch(`${sandboxUrl}/sandbox/faults`, {
      method,
      headers: { authorization: `Bearer ${config.SANDBOX_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) throw new Error(`sandbox ${method} /sandbox/faults answered ${response.status}: ${await response.text()}`);
  };

  const launchers: Record<ComponentName, () => Promise<Running>> = {
    temporal: async () => {
      const server = await startDevServer({ binary, port: ports.temporal, dbFile: path.join(options.dataDir, 'temporal.sqlite'), stdio: 'ignore', startupTimeoutMs: 120_000 });
      return { pid: server.pid, exited: processGone(server.pid), kill: () => process.kill(server.pid, 'SIGKILL'), stop: () => server.stop() };
    },
    sandbox: async () => {
      const running = await launchService('sandbox', env, logFile('sandbox'), { healthUrl: `${sandboxUrl}/healthz` });
      try {
        if (faults !== undefined) await sandboxAdmin('PUT', faults);
      } catch (error) {
        running.kill();
        await running.exited;
        throw error;
      }
      return running;
    },
    worker: () => launchService('worker', { ...env, LOG_LEVEL: 'info' }, logFile('worker'), { marker: '"worker.started"' }),
    api: () => launchService('api', env, logFile('api'), { healthUrl: `${engineUrl}/healthz` }),
  };
  const parts = Object.fromEntries(COMPONENTS.map((name) => [name, new Supervisor(name, launchers[name], options.log)])) as Record<ComponentName, Supervisor>;

  const stop = async (): Promise<void> => {
    for (const name of ['api', 'worker', 'sandbox', 'temporal'] as const) await parts[name].stop();
  };

  const allUp = async (): Promise<void> => {
    await Promise.all(COMPONENTS.map((name) => parts[name].start()));
    await pollUntil(
      async () => {
        const response = await fetch(`${engineUrl}/readyz`, { signal: AbortSignal.timeout(5_000) });
        return response.ok ? true : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 500, description: 'the engine API to be ready' },
    );
  };

  try {
    for (const name of ['temporal', 'sandbox', 'worker', 'api'] as const) await parts[name].start();
    await allUp();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    config,
    engineUrl,
    sandboxUrl,
    parts,
    async setFaults(next) {
      faults = next;
      await sandboxAdmin('PUT', next);
    },
    async clearFaults() {
      faults = undefined;
      await sandboxAdmin('DELETE');
    },
    allUp,
    stop,
  };
}
