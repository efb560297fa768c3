/**
 * The batch workflow's hands. Items go from the batch store straight to new payout workflows here, so no
 * item (and no PIX key) passes through the batch's history; payouts write their own outcomes to the store
 * (their outcome port), and the batch workflow reads back only counts. Every call is idempotent.
 */
import type { Client } from '@temporalio/client';
import { batchAnnouncement } from '../src/batches/batch-event';
import type { BatchStore, BatchSummary } from '../src/batches/batch-store';
import type { PayoutTiming } from '../src/payouts/payout-input';
import { payoutInput, startPayoutWorkflow } from '../src/lifecycles/payout-client';
import { acceptedPayout } from '../src/read-model/payout-records';
import type { ReadModel } from '../src/read-model/read-model';
import type { Announce } from '../src/merchant-events/announce';
import { batchWorkflowId } from '../src/lifecycles/batch-client';
import { mapConcurrently } from '../src/util/concurrency';

/**
 * Eager payout starts of one step in flight at once: well under the worker's workflow task slots
 * (WORKER_MAX_CONCURRENT_WORKFLOW_TASKS, 40 by default), some of which its pollers hold, so that each finds one free.
 */
const EAGER_STARTS_AT_ONCE = 16;

export interface BatchActivityDependencies {
  batchStore: BatchStore;
  temporal: Client;
  taskQueue: string;
  announce: Announce;
  readModel: Pick<ReadModel, 'recordPayouts'>;
  /** Start each payout eagerly (startPayoutWorkflow): only where `temporal` shares this worker's NativeConnection. */
  eagerStart: boolean;
}

export interface StartedPage {
  /** Highest seq handed to a payout workflow; the next call starts after it. */
  lastSeq: number;
  started: number;
}

export interface BatchCounts {
  /** Items whose payout runs and has not yet reached an outcome (NEEDS_REVIEW counts as an outcome). */
  inFlight: number;
}

export interface TopUp extends StartedPage {
  /** Payouts in flight once this call's have started. */
  inFlight: number;
  /** The window had room and the store had no item after `afterSeq`: nothing is left to start. (Nothing started and not
   * exhausted: the window is full, or the store's control holds the batch.) */
  exhausted: boolean;
}

export function createBatchActivities({
  batchStore: store,
  temporal,
  taskQueue,
  announce,
  readModel,
  eagerStart,
}: BatchActivityDependencies) {
  async function startPage(
    batchId: string,
    afterSeq: number,
    limit: number,
    timing: PayoutTiming,
  ): Promise<StartedPage> {
    const items = await store.readPage(batchId, afterSeq, limit);
    const inputs = items.map(({ seq: _seq, ...request }) => payoutInput(request, timing, batchId));
    // Eager starts a few at a time, so that each finds a free slot on this worker; otherwise the whole page at once.
    await mapConcurrently(inputs, eagerStart ? EAGER_STARTS_AT_ONCE : inputs.length, (input) =>
      startPayoutWorkflow(temporal, input, taskQueue, { eager: eagerStart }),
    );
    // Accepted rows only: a payout already further along keeps its row (a retry of this page).
    await readModel.recordPayouts(inputs.map(acceptedPayout));
    await store.markStarted(
      batchId,
      items.map((item) => item.seq),
    );
    return { lastSeq: items.reduce((last, item) => Math.max(last, item.seq), afterSeq), started: items.length };
  }

  async function summaryOf(batchId: string): Promise<BatchSummary> {
    const summary = await store.summary(batchId);
    if (!summary) throw new Error(`batch ${batchId} is not in the batch store`);
    return summary;
  }

  return {
    /**
     * Starts the payouts of the next `limit` items after `afterSeq`. A retry after a crash finds some
     * already started ('exists'): the store gives every externalId exactly one owner, so such a
     * workflow is this item's payout and counts as started. The batch's step before the
     * `payout-batch-top-up` patch (workflows/batches/batch.ts): kept for the runs recorded with it.
     */
    startBatchPayouts(batchId: string, afterSeq: number, limit: number, timing: PayoutTiming): Promise<StartedPage> {
      return startPage(batchId, afterSeq, limit, timing);
    },

    /**
     * One step of a running batch, one call: the payouts in flight from the store, then the next items started
     * (as startBatchPayouts, same idempotency) while the window has room, at most `limit`. The batch workflow
     * runs it as a local activity, so a step costs its history one marker instead of three activities.
     * Nothing starts while the store's control says PAUSED or CANCELLED: the API writes it once the workflow has
     * the signal, but a signal reaches the workflow only between its tasks, and local activities run back to back
     * inside one task (window larger than a page), so the store is where a pause is seen at once.
     */
    async topUpBatch(
      batchId: string,
      afterSeq: number,
      window: number,
      limit: number,
      timing: PayoutTiming,
    ): Promise<TopUp> {
      const summary = await summaryOf(batchId);
      const inFlight = summary.countsByState.STARTED.count;
      const room = summary.control === 'RUNNING' ? Math.min(window - inFlight, limit) : 0;
      const page = room > 0 ? await startPage(batchId, afterSeq, room, timing) : { lastSeq: afterSeq, started: 0 };
      return { ...page, inFlight: inFlight + page.started, exhausted: room > 0 && page.started === 0 };
    },

    async batchCounts(batchId: string): Promise<BatchCounts> {
      return { inFlight: (await summaryOf(batchId)).countsByState.STARTED.count };
    },

    /** Items never started end CANCELLED; the workflow calls it once it has stopped starting them. */
    cancelPendingItems(batchId: string): Promise<{ cancelled: number }> {
      return store.cancelPending(batchId);
    },

    /** The batch's last step: finished in the store, then announced to the merchant's endpoints (both idempotent). */
    async closeBatch(batchId: string): Promise<void> {
      await store.markFinished(batchId);
      const summary = await store.summary(batchId);
      if (summary) await announce(batchAnnouncement(batchWorkflowId(batchId), summary, new Date()));
    },
  };
}

export type BatchActivities = ReturnType<typeof createBatchActivities>;
