/**
 * The bench's production-path phase, on a fresh stack whose provider calls back `callbackDelayMs` after each request
 * (past the payout's first workflow task, as a real provider does): the first requests after the cold start
 * (cold-start.ts), then what a payout costs the server, counted (payout-counters.ts).
 */
import os from 'node:os';
import path from 'node:path';
import type { LocalStackPorts } from '../stack/local-stack-env';
import { measureColdStart, type ColdStartResult } from './cold-start';
import { startEngineStack } from './engine-stack';
import { measurePayoutCounters, type PayoutCounters } from './payout-counters';

const DAY_MS = 86_400_000;

export interface ProductionPathResult {
  callbackDelayMs: number;
  /** From the engine's processes' spawn to /readyz's 200, and the load average then (the machine is shared). */
  stackStartMs: number;
  loadAverageAtColdStart: number[];
  coldStart: ColdStartResult;
  counters: PayoutCounters;
}

export async function measureProductionPath(options: {
  dir: string;
  env: NodeJS.ProcessEnv;
  ports: LocalStackPorts;
  bundle: string;
  callbackDelayMs: number;
  payouts: number;
  timeoutMs: number;
}): Promise<ProductionPathResult> {
  const stack = await startEngineStack({
    dir: path.join(options.dir, 'production-path'),
    // The MED sync Schedule's runs would count as the payouts' (a day apart: none runs in the phase).
    env: { ...options.env, SANDBOX_SETTLE_MS: String(options.callbackDelayMs), MED_SYNC_INTERVAL_MS: String(DAY_MS) },
    ports: options.ports,
    bundle: options.bundle,
    buildBundle: false,
  });
  try {
    const engine = { url: stack.engineUrl, apiKey: stack.apiKey };
    const client = stack.temporal.client.client;
    const loadAverageAtColdStart = os.loadavg().map((value) => Number(value.toFixed(2)));
    const coldStart = await measureColdStart(engine, client);
    const counters = await measurePayoutCounters({
      engine,
      client,
      metricsUrl: stack.temporal.metricsUrl,
      payouts: options.payouts,
      timeoutMs: options.timeoutMs,
    });
    return {
      callbackDelayMs: options.callbackDelayMs,
      stackStartMs: stack.startMs,
      loadAverageAtColdStart,
      coldStart,
      counters,
    };
  } finally {
    await stack.stop();
  }
}
