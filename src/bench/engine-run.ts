/**
 * The engine end to end: one batch of N payouts through the engine API, the worker, the sandbox (settling
 * at once) and its callbacks, until every payout is COMPLETED. Latency is from the batch's acceptance to
 * each payout's close, read from Temporal's visibility.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { batchAcceptedSchema, batchSummarySchema } from '../batches/batch-api-schemas';
import { pollUntil } from '../util/poll';

export interface EngineRunResult {
  payouts: number;
  acceptMs: number;
  seconds: number;
  perSecond: number;
  completed: number;
  /** From the batch's submission to each payout's COMPLETED: what the merchant waits. */
  latencyMs: { p50: number; p99: number };
  /** From each payout workflow's start to its COMPLETED: the payout itself, without the wait for the window. */
  payoutLatencyMs: { p50: number; p99: number };
}

export function benchItems(count: number, run: string) {
  // Whole-real amounts: never .13 or .14, the sandbox's failure and stall rules.
  return Array.from({ length: count }, (_, index) => ({
    externalId: `bench-${run}-${index}`,
    amount: 10 + (index % 90),
    pixKey: '52998224725',
    keyType: 'CPF' as const,
  }));
}

async function post(apiUrl: string, apiKey: string, body: unknown): Promise<{ status: number; json: unknown; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${apiUrl}/v1/payout-batches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json: unknown = await response.json();
  return { status: response.status, json, ms: performance.now() - started };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Accepting a batch: validation, duplicate checks, the durable store, the batch workflow's start. */
export async function measureAcceptance(apiUrl: string, apiKey: string, count: number): Promise<{ batchId: string; acceptMs: number }> {
  const batchId = `bench-accept-${randomUUID().slice(0, 8)}`;
  const answer = await post(apiUrl, apiKey, { batchId, items: benchItems(count, batchId) });
  if (answer.status !== 202) throw new Error(`batch refused: ${answer.status} ${JSON.stringify(answer.json).slice(0, 500)}`);
  return { batchId, acceptMs: answer.ms };
}

export async function measureEngine(options: { apiUrl: string; apiKey: string; client: Client; payouts: number; timeoutMs: number }): Promise<EngineRunResult> {
  const batchId = `bench-${randomUUID().slice(0, 8)}`;
  const submittedAt = Date.now();
  const answer = await post(options.apiUrl, options.apiKey, { batchId, items: benchItems(options.payouts, batchId) });
  if (answer.status !== 202) throw new Error(`batch refused: ${answer.status} ${JSON.stringify(answer.json).slice(0, 500)}`);
  batchAcceptedSchema.parse(answer.json);

  const summary = await pollUntil(
    async () => {
      const response = await fetch(`${options.apiUrl}/v1/payout-batches/${batchId}`, { headers: { authorization: `Bearer ${options.apiKey}` } });
      const parsed = batchSummarySchema.parse(await response.json());
      return parsed.done ? parsed : undefined;
    },
    { timeoutMs: options.timeoutMs, intervalMs: 500, description: `batch ${batchId} to finish` },
  );
  const finishedAt = Date.now();

  const latencies: number[] = [];
  const payoutLatencies: number[] = [];
  for await (const execution of options.client.workflow.list({ query: `BatchId = '${batchId}' AND PayoutFlow = 'pix-withdrawal' AND PayoutStatus = 'COMPLETED'` })) {
    if (!execution.closeTime) continue;
    latencies.push(execution.closeTime.getTime() - submittedAt);
    payoutLatencies.push(execution.closeTime.getTime() - execution.startTime.getTime());
  }
  latencies.sort((a, b) => a - b);
  payoutLatencies.sort((a, b) => a - b);
  const seconds = (finishedAt - submittedAt) / 1_000;
  return {
    payouts: options.payouts,
    acceptMs: answer.ms,
    seconds,
    perSecond: options.payouts / seconds,
    completed: summary.counts.COMPLETED?.count ?? 0,
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    payoutLatencyMs: { p50: percentile(payoutLatencies, 50), p99: percentile(payoutLatencies, 99) },
  };
}
