/** What batch tests keep building: many PIX-key items the sandbox settles, and what they add up to. */
import { randomUUID } from 'node:crypto';
import type { BatchSummaryResponse } from '../../src/api/batches/schemas';
import { pollUntil, StopPolling } from '../../src/util/poll';
import type { EngineHarness } from './engine-harness';

export interface BatchItem {
  externalId: string;
  amount: number;
  pixKey: string;
  keyType: 'EMAIL';
}

/** `count` items with different amounts, none ending in .13 or .14 (the sandbox's failure rules). */
export function batchItems(label: string, count: number): BatchItem[] {
  const prefix = `${label}-${randomUUID().slice(0, 6)}`;
  return Array.from({ length: count }, (_, index) => {
    let cents = 1_000 + index * 7;
    if (cents % 100 === 13 || cents % 100 === 14) cents += 5;
    return {
      externalId: `${prefix}-${index}`,
      amount: cents / 100,
      pixKey: `seller${index}@example.com`,
      keyType: 'EMAIL' as const,
    };
  });
}

export const totalCents = (list: { amount: number }[]): number =>
  list.reduce((sum, item) => sum + Math.round(item.amount * 100), 0);

/**
 * Waits for a batch to finish for as long as its items keep moving: fails once no count has changed for `stallMs`,
 * naming where its items stand. A stuck item is told from a slow machine, which only stretches the wait: the bound is
 * a state (no progress), not a wall-clock figure.
 */
export async function waitBatchDone(
  stack: Pick<EngineHarness, 'api'>,
  batchId: string,
  options: { stallMs?: number; finished?: (summary: BatchSummaryResponse) => boolean } = {},
): Promise<BatchSummaryResponse> {
  const { stallMs = 60_000, finished = (summary) => summary.done && summary.finishedAt !== undefined } = options;
  let seen: string | undefined;
  let movedAt = Date.now();
  return pollUntil(
    async () => {
      const answer = await stack
        .api<BatchSummaryResponse>('GET', `/v1/payout-batches/${batchId}`)
        .catch(() => undefined);
      const summary = answer?.status === 200 ? answer.body : undefined;
      if (summary && finished(summary)) return summary;
      const counts = JSON.stringify(summary?.counts);
      if (summary && counts !== seen) {
        seen = counts;
        movedAt = Date.now();
      } else if (Date.now() - movedAt > stallMs) {
        throw new StopPolling(`batch ${batchId} has not moved for ${stallMs} ms; its items: ${counts}`);
      }
      return undefined;
    },
    { timeoutMs: Number.POSITIVE_INFINITY, intervalMs: 250, description: `batch ${batchId} to finish` },
  );
}
