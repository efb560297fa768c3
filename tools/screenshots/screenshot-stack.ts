/**
 * The throwaway stack the documentation's pictures are taken from: the Temporal dev server (with its Web UI
 * when asked), the sandbox, a worker and the engine API, in a temporary data folder on free ports, as
 * `npm start` runs them. `stop()` ends every process it started and removes the folder.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config/env';
import { freePort } from '../../src/net/free-port';
import { pollUntil } from '../../src/util/poll';
import { freeStackPorts, localStackEnv, type LocalStackPorts } from '../stack/local-stack-env';
import { spawnKeepingTail, spawnWaitingForLog, stopChild, waitHealthy } from '../stack/child-services';
import { devServerOptionsFor } from '../stack/stack-options';
import { temporalCliPath } from '../temporal/binaries';
import { startDevServer } from '../temporal/dev-server';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the pictures go: docs/screenshots/, or SCREENSHOT_DIR. */
export const SCREENSHOT_DIR = path.resolve(
  process.env.SCREENSHOT_DIR ?? path.join(__dirname, '..', '..', 'docs', 'screenshots'),
);

/** Headless Chromium (CHROMIUM_PATH), the screenshot directory made: the caller closes the browser. */
export async function screenshotBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

export interface EngineAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface ScreenshotStack {
  config: Config;
  ports: LocalStackPorts;
  /** The Temporal Web UI's URL, when started with `temporalUi`. */
  temporalUiUrl?: string;
  /** A call to the engine API with the stack's key. */
  engine(method: string, route: string, body?: unknown): Promise<EngineAnswer>;
  /** Resolves once the payout has reached COMPLETED or FAILED; its last view. */
  payoutEnded(externalId: string): Promise<EngineAnswer>;
  stop(): Promise<void>;
}

/** `env` comes on top of the stack's own (OTEL_* to trace it, for instance) and reaches every service. */
export async function startScreenshotStack(options: {
  temporalUi: boolean;
  env?: NodeJS.ProcessEnv;
}): Promise<ScreenshotStack> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-screenshots-'));
  const ports = await freeStackPorts();
  const uiPort = options.temporalUi ? await freePort() : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...localStackEnv({ dataDir, temporalAddress: `127.0.0.1:${ports.temporal}`, ports }),
    ...(uiPort === undefined ? {} : { TEMPORAL_UI_PORT: String(uiPort) }),
    SANDBOX_SETTLE_MS: '300',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const config = loadConfig(env);
  // Without the Web UI the dev server runs headless (no uiPort).
  const { uiPort: configuredUiPort, ...headless } = devServerOptionsFor(config, temporalCliPath());
  const temporal = await startDevServer({
    ...headless,
    ...(uiPort === undefined ? {} : { uiPort: configuredUiPort }),
    stdio: 'ignore',
  });
  const children: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    for (const child of children.reverse()) await stopChild(child, 30_000);
    await temporal.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  // A loaded machine (a test suite beside it) can take minutes to start Node services: a deadline, not a forecast.
  const startup = { timeoutMs: 180_000 };
  try {
    const sandbox = spawnKeepingTail('sandbox', env);
    children.push(sandbox.child);
    await waitHealthy(`http://127.0.0.1:${ports.sandbox}/healthz`, sandbox.child, 'sandbox', {
      ...startup,
      tail: sandbox.tail,
    });
    children.push(await spawnWaitingForLog('worker', { ...env, LOG_LEVEL: 'info' }, '"worker.started"'));
    const api = spawnKeepingTail('api', env);
    children.push(api.child);
    await waitHealthy(`http://127.0.0.1:${ports.engine}/healthz`, api.child, 'engine API', {
      ...startup,
      tail: api.tail,
    });
  } catch (error) {
    await stop();
    throw error;
  }

  const engine = async (method: string, route: string, body?: unknown): Promise<EngineAnswer> => {
    const response = await fetch(`http://127.0.0.1:${ports.engine}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${config.ENGINE_API_KEYS[0]?.secret ?? ''}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const payoutEnded = (externalId: string): Promise<EngineAnswer> =>
    pollUntil(
      async () => {
        const answer = await engine('GET', `/v1/payouts/${externalId}`);
        return ['COMPLETED', 'FAILED'].includes(String(answer.body.status)) ? answer : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 250, description: `payout ${externalId} to end` },
    );
  return {
    config,
    ports,
    ...(temporal.uiUrl === undefined ? {} : { temporalUiUrl: temporal.uiUrl }),
    engine,
    payoutEnded,
    stop,
  };
}
