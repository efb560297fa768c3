/**
 * Accepting a batch (the body read, every row validated, duplicate checks, the durable store, the batch
 * workflow's start) while a probe asks the same API for /healthz, one request after another: how long the
 * acceptance takes, and the longest any other request waited meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchApiClient } from '../cli/batch-api-client';
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
  return ['externalId,amount,pixKey,keyType', ...items.map((item) => `${item.externalId},${item.amount},${item.pixKey},${item.keyType}`)].join('\n');
}

export async function measureAcceptance(api: BatchApiClient, options: { items: number; format: AcceptanceFormat; healthzUrl: string }): Promise<AcceptanceResult> {
  const batchId = `bench-accept-${options.format}-${randomUUID().slice(0, 8)}`;
  const items = benchItems(options.items, batchId);
  const body = options.format === 'csv' ? toCsv(items) : JSON.stringify({ batchId, items });

  let accepted = false;
  const healthz = { answers: 0, maxMs: 0 };
  const probing = (async () => {
    while (!accepted) {
      const started = performance.now();
      const response = await fetch(options.healthzUrl);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`/healthz answered ${response.status} during the acceptance`);
      healthz.answers += 1;
      healthz.maxMs = Math.max(healthz.maxMs, performance.now() - started);
      await sleep(PROBE_GAP_MS);
    }
  })();

  const started = performance.now();
  try {
    await (options.format === 'csv' ? api.submitCsv(body, batchId) : api.submitJson(body));
  } finally {
    accepted = true;
  }
  const acceptMs = performance.now() - started;
  await probing;
  return { batchId, acceptMs, healthz: { answers: healthz.answers, maxMs: Math.round(healthz.maxMs) } };
}
