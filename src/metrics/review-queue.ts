/**
 * The review queue gauge: a visibility count of running payouts in NEEDS_REVIEW, taken every
 * `intervalMs` by the API process (one count per replica, each a cheap visibility query). A failed count
 * keeps the last value: the gauge says what was last known, the logs say that counting failed.
 */
import type { Client } from '@temporalio/client';
import type { Logger } from '../logging/logger';
import { payoutsNeedingReview } from './engine-metrics';

export const REVIEW_QUEUE_QUERY = 'ExecutionStatus = "Running" AND PayoutStatus = "NEEDS_REVIEW"';
const COUNT_DEADLINE_MS = 5_000;

export async function countReviewQueue(client: Client): Promise<number> {
  const { count } = await client.withDeadline(Date.now() + COUNT_DEADLINE_MS, () =>
    client.workflow.count(REVIEW_QUEUE_QUERY),
  );
  payoutsNeedingReview.set(count);
  return count;
}

/** Starts the periodic count; the returned function stops it. The timer never keeps the process alive. */
export function watchReviewQueue(client: Client, intervalMs: number, logger: Logger): () => void {
  let running = false;
  const refresh = (): void => {
    if (running) return;
    running = true;
    countReviewQueue(client)
      .catch((error: unknown) =>
        logger.warn('metrics.review_count_failed', { error: error instanceof Error ? error : String(error) }),
      )
      .finally(() => {
        running = false;
      });
  };
  refresh();
  const timer = setInterval(refresh, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
