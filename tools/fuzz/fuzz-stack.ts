/**
 * The stack `npm run fuzz` fuzzes: the sandbox, a worker and the engine API as child processes on free
 * ports, each with its own log file, on a Temporal dev server of its own (or on one given, as the tests
 * do), in a throwaway data folder. Rate limits are lifted: fuzzing sends far more requests than a merchant.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { API_KEY_SCOPES, type ApiKey } from '../../src/config/api-keys';
import { loadConfig, type Config } from '../../src/config/env';
import { freeStackPorts, localStackEnv } from '../stack/local-stack-env';
import { spawnService, spawnWaitingForLog, stopChild, waitHealthy } from '../stack/child-services';
import { temporalCliPath } from '../temporal/binaries';
import { startDevServer, type DevServerHandle } from '../temporal/dev-server';

export interface FuzzStack {
  config: Config;
  /** The engine's keys, written with their scopes: one with every scope, one that only reads. */
  apiKeys: { every: ApiKey; reader: ApiKey };
  engineUrl: string;
  sandboxUrl: string;
  /** Callbacks the sandbox tried to deliver: must stay 0 (see keepCallbacks). */
  callbackAttempts(): Promise<number>;
  stop(): Promise<void>;
}

const sandboxCallbacksSchema = z.object({
  callbacks: z.array(z.object({ url: z.string(), attempts: z.number().int() })),
});

async function sandboxAdmin(
  stack: { sandboxUrl: string; config: Config },
  method: 'GET' | 'PUT',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${stack.sandboxUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${stack.config.SANDBOX_ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`sandbox admin ${method} ${path} answered ${response.status}`);
  return response.json();
}

/**
 * Fuzzed requests name callback URLs on any host: the sandbox keeps every callback (as `dropped`)
 * instead of calling them, so no request of the run leaves this machine.
 */
async function keepCallbacks(stack: { sandboxUrl: string; config: Config }): Promise<void> {
  await sandboxAdmin(stack, 'PUT', '/sandbox/faults', { callbacks: { drop: { share: 1 } } });
}

export interface FuzzStackOptions {
  /** An existing Temporal frontend (host:port); omitted: a dev server is started and stopped with the stack. */
  temporalAddress?: string;
  /** Where each service writes its log (`<service>.log`). */
  logDir: string;
}

/** Opens a service's log file for its stdout and stderr. */
function logTo(logDir: string, service: string): number {
  return openSync(path.join(logDir, `${service}.log`), 'w');
}

export async function startFuzzStack(options: FuzzStackOptions): Promise<FuzzStack> {
  mkdirSync(options.logDir, { recursive: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-fuzz-'));
  const ports = await freeStackPorts();
  let temporal: DevServerHandle | undefined;
  const children: ChildProcess[] = [];
  const logFiles: number[] = [];

  const stop = async (): Promise<void> => {
    for (const child of children.reverse()) await stopChild(child, 30_000);
    await temporal?.stop();
    for (const fd of logFiles) closeSync(fd);
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    let temporalAddress = options.temporalAddress;
    if (!temporalAddress) {
      temporal = await startDevServer({
        binary: temporalCliPath(),
        port: ports.temporal,
        metricsPort: ports.temporalMetrics,
        stdio: 'ignore',
      });
      temporalAddress = temporal.address;
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...localStackEnv({ dataDir, temporalAddress, ports }),
      TEMPORAL_TASK_QUEUE: `fuzz-${randomUUID()}`,
      SANDBOX_SETTLE_MS: '0',
      ENGINE_RATE_LIMIT_PER_MINUTE: '1000000',
      ENGINE_API_KEYS: `fuzz:${randomBytes(24).toString('hex')}:${API_KEY_SCOPES.join('+')},fuzz-reader:${randomBytes(24).toString('hex')}:read`,
      LOG_LEVEL: 'warn',
    };
    const config = loadConfig(env);
    const [every, reader] = config.ENGINE_API_KEYS;
    if (!every || !reader) throw new Error('the fuzz stack has its two API keys');

    const sandboxLog = logTo(options.logDir, 'sandbox');
    logFiles.push(sandboxLog);
    const sandbox = spawnService('sandbox', { env, stdio: ['ignore', sandboxLog, sandboxLog] });
    children.push(sandbox);
    const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;
    await waitHealthy(`${sandboxUrl}/healthz`, sandbox, 'sandbox');
    await keepCallbacks({ sandboxUrl, config });
    children.push(await spawnWaitingForLog('worker', { ...env, LOG_LEVEL: 'info' }, '"worker.started"'));
    const apiLog = logTo(options.logDir, 'api');
    logFiles.push(apiLog);
    const api = spawnService('api', { env, stdio: ['ignore', apiLog, apiLog] });
    children.push(api);
    await waitHealthy(`http://127.0.0.1:${ports.engine}/healthz`, api, 'engine API');
    return {
      config,
      apiKeys: { every, reader },
      engineUrl: `http://127.0.0.1:${ports.engine}`,
      sandboxUrl,
      async callbackAttempts() {
        const { callbacks } = sandboxCallbacksSchema.parse(
          await sandboxAdmin({ sandboxUrl, config }, 'GET', '/sandbox/callbacks'),
        );
        return callbacks.reduce((sum, callback) => sum + callback.attempts, 0);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
