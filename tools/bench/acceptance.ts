/**
 * Accepting a batch (the body read, every row validated, duplicate checks, the durable store, the batch
 * workflow's start) while a probe asks the same API for /healthz, one request after another: how long the
 * acceptance takes, and the longest any other request waited meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { EngineClient } from '../../src/client';
import { benchItems } from './engine-run';

export type AcceptanceFormat = 'json' | 'csv';

export interface AcceptanceResult {
  batchId: string;
  acceptMs: number;
  /** /healthz answers that came back while the batch was being accepted, and the slowest of them. */
  healthz: { answers: number; maxMs: number };
}

/** Pause between two probes: often enough to catch any stall longer than a few milliseconds. */
const PROBE_GAP_MS = 5;

function toCsv(items: ReturnType<typeof benchItems>): string {
  return [
    'externalId,amount,pixKey,keyType',
    ...items.map((item) => `${item.externalId},${item.amount},${item.pixKey},${item.keyType}`),
  ].join('\n');
}

export async function measureAcceptance(
  api: EngineClient,
  options: { items: number; format: AcceptanceFormat; healthzUrl: string },
): Promise<AcceptanceResult> {
  const batchId = `bench-accept-${options.format}-${randomUUID().slice(0, 8)}`;
  const items = benchItems(options.items, batchId);
  const body = options.format === 'csv' ? toCsv(items) : JSON.stringify({ batchId, items });

  const probe = startHealthzProbe(options.healthzUrl);
  const started = performance.now();
  try {
    await (options.format === 'csv' ? api.submitCsv(body, batchId) : api.submitJson(body));
  } catch (error) {
    await probe.stop().catch(() => undefined);
    throw error;
  }
  const acceptMs = performance.now() - started;
  const healthz = await probe.stop();
  return { batchId, acceptMs, healthz: { answers: healthz.answers, maxMs: Math.round(healthz.maxMs) } };
}

/**
 * The probe runs on a thread of its own: on the bench's main thread, the upload of a 100,000-item body
 * (encoding it, writing it out, garbage collection of it) would stall the probe and count as the API's
 * delay. Plain JavaScript, evaluated as is, so that the thread needs no TypeScript loader.
 */
const PROBE_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
let stopping = false;
const healthz = { answers: 0, maxMs: 0 };
parentPort.once('message', () => { stopping = true; });
(async () => {
  while (!stopping) {
    const started = performance.now();
    const response = await fetch(workerData.url);
    await response.arrayBuffer();
    if (!response.ok) throw new Error('/healthz answered ' + response.status + ' during the acceptance');
    healthz.answers += 1;
    healthz.maxMs = Math.max(healthz.maxMs, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, workerData.gapMs));
  }
  parentPort.postMessage(healthz);
})();
`;

const probeResultSchema = z.object({ answers: z.number().int(), maxMs: z.number() });

function startHealthzProbe(url: string): { stop(): Promise<z.infer<typeof probeResultSchema>> } {
  const thread = new Worker(PROBE_THREAD, { eval: true, workerData: { url, gapMs: PROBE_GAP_MS } });
  const result = new Promise<z.infer<typeof probeResultSchema>>((resolve, reject) => {
    thread.once('message', (message: unknown) => {
      const parsed = probeResultSchema.safeParse(message);
      if (parsed.success) resolve(parsed.data);
      else reject(parsed.error);
    });
    thread.once('error', reject);
    thread.once('exit', (code) =>
      reject(new Error(`the /healthz probe stopped (exit code ${code}) before it reported`)),
    );
  });
  // A probe that fails (a /healthz error) is reported by stop(), after the acceptance, not as an unhandled rejection.
  result.catch(() => undefined);
  return {
    stop: async () => {
      thread.postMessage('stop');
      try {
        return await result;
      } finally {
        await thread.terminate();
      }
    },
  };
}
