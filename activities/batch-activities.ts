/**
 * The batch workflow's hands. Items go from the batch store straight to new payout workflows here, so no
 * item (and no PIX key) passes through the batch's history; payouts write their own outcomes to the store
 * (a local activity), and the batch workflow reads back only counts. Every call is idempotent.
 */
import type { Client } from '@temporalio/client';
import { payoutRequestHash } from '../src/api/payouts/payout-request';
import type { BatchStore, ItemOutcome } from '../src/batches/batch-store';
import { startPayoutWorkflow } from '../src/payouts/start-payout';
import type { PayoutTiming } from '../workflows/payout/messages';
import type { PayoutSettlement } from '../workflows/batch/messages';

export interface BatchActivityDependencies {
  batchStore: BatchStore;
  temporal: Client;
  taskQueue: string;
}

export interface StartedPage {
  /** Highest seq handed to a payout workflow; the next call starts after it. */
  lastSeq: number;
  started: number;
}

export interface BatchCounts {
  /** Items whose payout runs and has not yet reached an outcome (NEEDS_REVIEW counts as an outcome). */
  inFlight: number;
  pending: number;
}

/** How a payout's state reads in its batch: RECEIVED and SUBMITTED are both "started". */
export function itemOutcome(settlement: PayoutSettlement): ItemOutcome {
  return {
    externalId: settlement.externalId,
    state: settlement.state === 'RECEIVED' || settlement.state === 'SUBMITTED' ? 'STARTED' : settlement.state,
    ...(settlement.feeCents === undefined ? {} : { feeCents: settlement.feeCents }),
    ...(settlement.failureReason ? { failureReason: settlement.failureReason } : {}),
  };
}

export function createBatchActivities({ batchStore: store, temporal, taskQueue }: BatchActivityDependencies) {
  return {
    /**
     * Starts the payouts of the next `limit` items after `afterSeq`. A retry after a crash finds some
     * already started ('exists'): the store gives every externalId exactly one owner, so such a
     * workflow is this item's payout and counts as started.
     */
    async startBatchPayouts(batchId: string, afterSeq: number, limit: number, timing: PayoutTiming): Promise<StartedPage> {
      const items = store.readPage(batchId, afterSeq, limit);
      await Promise.all(
        items.map((item) => {
          const request = {
            externalId: item.externalId,
            amountCents: item.amountCents,
            pixKey: item.pixKey,
            keyType: item.keyType,
            ...(item.description ? { description: item.description } : {}),
          };
          return startPayoutWorkflow(temporal, { ...request, batchId, requestHash: payoutRequestHash(request), timing }, taskQueue);
        }),
      );
      store.markStarted(batchId, items.map((item) => item.seq));
      return { lastSeq: items.reduce((last, item) => Math.max(last, item.seq), afterSeq), started: items.length };
    },

    batchCounts(batchId: string): Promise<BatchCounts> {
      const summary = store.summary(batchId);
      if (!summary) throw new Error(`batch ${batchId} is not in the batch store`);
      return Promise.resolve({ inFlight: summary.countsByState.STARTED.count, pending: summary.countsByState.PENDING.count });
    },

    /** A payout of a batch records where it stands (run as a local activity by the payout workflow). */
    recordBatchOutcome(batchId: string, settlement: PayoutSettlement): Promise<void> {
      store.recordOutcomes(batchId, [itemOutcome(settlement)]);
      return Promise.resolve();
    },

    /** Items never started end CANCELLED; the workflow calls it once it has stopped starting them. */
    cancelPendingItems(batchId: string): Promise<{ cancelled: number }> {
      return Promise.resolve(store.cancelPending(batchId));
    },

    closeBatch(batchId: string): Promise<void> {
      store.markFinished(batchId);
      return Promise.resolve();
    },
  };
}

export type BatchActivities = ReturnType<typeof createBatchActivities>;
