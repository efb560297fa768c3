/**
 * Batches between HTTP and Temporal: validates every item before anything starts, stores the batch
 * durably (the items never travel through Temporal in one payload), starts `payout-batch:<batchId>`,
 * and reads progress from the store, which the batch workflow keeps current.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Config } from '../../config/env';
import {
  BatchInsertInterruptedError,
  ExternalIdsTakenError,
  type BatchControl,
  itemPages,
  type BatchItemView,
  type BatchStore,
  type BatchSummary,
  type CreateBatchOutcome,
  type ItemsPage,
  type ListItemsOptions,
} from '../../batches/batch-store';
import { batchRequestHashSlices, readableExternalIdsSlices, validateBatchSlices } from '../../batches/batch-request';
import { runInSlices } from '../../util/slices';
import {
  batchHandle,
  batchProgressQuery,
  cancelBatchSignal,
  pauseBatchSignal,
  resumeBatchSignal,
  startBatchWorkflow,
  type BatchProblem,
} from '../../lifecycles/batch-client';
import { ActivityProblemSince, BatchStatus } from '../../temporal/search-attributes';
import type { RowIssue } from '../../validation/issues';
import { ApiError } from '../errors';
import { withinDeadline } from '../temporal-calls';
import { payoutTiming } from '../../payouts/payout-input';
import { railUnavailable, type RailSettings } from '../../payouts/rails/availability';
import type { PayoutMethod } from '../../payouts/rails/methods';

type BatchConfig = Pick<
  Config,
  | 'TEMPORAL_TASK_QUEUE'
  | 'TEMPORAL_CALL_DEADLINE_MS'
  | 'BATCH_WINDOW'
  | 'BATCH_RATE_PER_SECOND'
  | 'BATCH_PAGE_SIZE'
  | 'BATCH_POLL_MS'
  | 'BATCH_MAX_HISTORY_EVENTS'
  | 'BATCH_PROBLEM_AFTER_MS'
  | 'PAYOUT_CALLBACK_WAIT_MS'
  | 'PAYOUT_POLL_INITIAL_MS'
  | 'PAYOUT_POLL_MAX_MS'
  | 'PAYOUT_REVIEW_AFTER_MS'
  | 'PAYOUT_SUBMIT_DEADLINE_MS'
> &
  RailSettings;

export class BatchService {
  constructor(
    private readonly client: Client,
    private readonly store: BatchStore,
    private readonly config: BatchConfig,
  ) {}

  /**
   * Validates every item, stores the batch, starts its workflow. `knownIssues` are the problems the
   * reader of the body already found (CSV rows), so that one answer names every bad row. Every step
   * works in slices: the API keeps answering while it takes a batch of 100,000 items.
   */
  async submit(
    rawItems: readonly unknown[],
    requestedBatchId: string | undefined,
    knownIssues: readonly RowIssue[] = [],
  ): Promise<{ batchId: string; total: number; totalAmountCents: number; created: boolean }> {
    const batchId = requestedBatchId ?? randomUUID();
    // The ids held by a batch whose insert died with its process would otherwise be refused below.
    await this.store.discardAbandonedBatches();
    // Asked of the store before validation (a round trip per 5,000 ids, not per row); a
    // re-submission of this batch is not refused as duplicates of itself.
    const taken = await this.takenExternalIds(rawItems, batchId);
    const existing = (ids: string[]) => new Set(ids.filter((id) => taken.has(id)));
    const validation = await runInSlices(validateBatchSlices(rawItems, existing, { knownIssues }));
    if (!validation.ok) throw invalidRows(validation.rows);
    const offRails = unavailableRails(validation.items, this.config);
    if (offRails.length > 0) {
      throw new ApiError(
        422,
        'RAIL_NOT_AVAILABLE',
        `${new Set(offRails.map((row) => row.index)).size} item(s) of the batch use a rail that is off; nothing was started`,
        undefined,
        offRails,
      );
    }
    const requestHash = await runInSlices(batchRequestHashSlices(validation.items));
    let outcome: CreateBatchOutcome;
    try {
      ({ outcome } = await this.store.createBatch({
        batchId,
        items: validation.items,
        requestHash,
        createdAt: new Date(),
      }));
    } catch (error) {
      if (error instanceof BatchInsertInterruptedError) {
        throw new ApiError(
          503,
          'BATCH_INSERT_INTERRUPTED',
          `Storing batch ${batchId} was interrupted; nothing was stored. Send the same request again`,
        );
      }
      if (!(error instanceof ExternalIdsTakenError)) throw error;
      const taken = new Set(error.externalIds);
      throw invalidRows(
        validation.items.flatMap((item, index) =>
          taken.has(item.externalId)
            ? [
                {
                  index,
                  externalId: item.externalId,
                  field: 'externalId',
                  message: 'externalId already belongs to another payout',
                },
              ]
            : [],
        ),
      );
    }
    if (outcome === 'conflict')
      throw new ApiError(409, 'BATCH_CONFLICT', `A different batch with batchId ${batchId} already exists`);
    // Also on 'exists': a crash between storing and starting leaves a stored batch whose workflow must still start.
    await this.startWorkflow(batchId, validation.items.length);
    return {
      batchId,
      total: validation.items.length,
      totalAmountCents: validation.totalAmountCents,
      created: outcome === 'created',
    };
  }

  private async takenExternalIds(rawItems: readonly unknown[], batchId: string): Promise<Set<string>> {
    const ids = await runInSlices(readableExternalIdsSlices(rawItems));
    const taken = new Set<string>();
    for (let from = 0; from < ids.length; from += EXISTING_IDS_CHUNK) {
      for (const id of await this.store.existingExternalIds(ids.slice(from, from + EXISTING_IDS_CHUNK), {
        exceptBatchId: batchId,
      }))
        taken.add(id);
    }
    return taken;
  }

  private async startWorkflow(batchId: string, total: number): Promise<void> {
    const settings = {
      window: this.config.BATCH_WINDOW,
      ...(this.config.BATCH_RATE_PER_SECOND ? { ratePerSecond: this.config.BATCH_RATE_PER_SECOND } : {}),
      pageSize: this.config.BATCH_PAGE_SIZE,
      pollMs: this.config.BATCH_POLL_MS,
      maxHistoryEvents: this.config.BATCH_MAX_HISTORY_EVENTS,
      problemAfterMs: this.config.BATCH_PROBLEM_AFTER_MS,
    };
    await this.temporal(() =>
      startBatchWorkflow(
        this.client,
        { batchId, total, timing: payoutTiming(this.config), settings },
        this.config.TEMPORAL_TASK_QUEUE,
      ),
    );
  }

  private temporal<T>(call: () => Promise<T>): Promise<T> {
    return withinDeadline(this.client, this.config.TEMPORAL_CALL_DEADLINE_MS, call);
  }

  async summary(batchId: string): Promise<BatchSummary> {
    const summary = await this.store.summary(batchId);
    if (!summary) throw new ApiError(404, 'BATCH_NOT_FOUND', `No batch with batchId ${batchId}`);
    return summary;
  }

  /**
   * Why a batch does not move, when its workflow says so (status STALLED, or ActivityProblemSince, in the index): the details come
   * from its query; without a worker to answer, the index's word alone.
   */
  async problem(batchId: string): Promise<BatchProblem | undefined> {
    const handle = batchHandle(this.client, batchId);
    const description = await this.temporal(() => handle.describe()).catch((error: unknown) => {
      if (error instanceof WorkflowNotFoundError) return undefined;
      throw error;
    });
    if (!description) return undefined;
    const attributes = description.typedSearchAttributes;
    if (attributes.get(BatchStatus) !== 'STALLED' && attributes.get(ActivityProblemSince) === undefined)
      return undefined;
    const progress = await this.temporal(() => handle.query(batchProgressQuery)).catch(() => undefined);
    return (
      progress?.problem ?? {
        activity: 'unknown',
        message: 'the batch workflow reports a problem; no worker answered for its details',
        since: (attributes.get(ActivityProblemSince) ?? description.startTime).toISOString(),
      }
    );
  }

  async items(batchId: string, options: ListItemsOptions): Promise<ItemsPage> {
    await this.summary(batchId);
    return this.store.listItems(batchId, options);
  }

  /**
   * Every item of the batch in seq order, a page at a time, for the export: an unknown batch is refused
   * (404) before anything is written; each page is read only when the previous one has been taken.
   */
  async itemPages(batchId: string): Promise<AsyncIterable<BatchItemView[]>> {
    await this.summary(batchId);
    return itemPages(this.store, batchId, EXPORT_PAGE);
  }

  /**
   * Cancel, pause or resume. The workflow is signalled first (it alone acts: on cancel, items not started
   * end CANCELLED; started ones go on); then the store's control is written, so the answer already shows it.
   */
  async control(batchId: string, action: BatchAction): Promise<BatchSummary> {
    const before = await this.summary(batchId);
    if (before.finishedAt) throw new ApiError(409, 'BATCH_FINISHED', `Batch ${batchId} has already finished`);
    if (before.control === 'CANCELLED') {
      if (action === 'cancel') return before;
      throw new ApiError(409, 'BATCH_CANCELLED', `Batch ${batchId} was cancelled; it cannot be ${action}d`);
    }
    const { signal, control } = CONTROLS[action];
    try {
      await this.temporal(() => batchHandle(this.client, batchId).signal(signal));
    } catch (error) {
      if (error instanceof WorkflowNotFoundError)
        throw new ApiError(409, 'BATCH_FINISHED', `Batch ${batchId} has already finished`);
      throw error;
    }
    // Only the workflow turns items CANCELLED: it alone knows which ones it has started.
    await this.store.setControl(batchId, control);
    return this.summary(batchId);
  }
}

/** Items per read of the export: one short query each, about 100 kB of CSV. */
const EXPORT_PAGE = 1_000;

/** Ids per question to the store: one statement each, short enough for the other writers. */
const EXISTING_IDS_CHUNK = 5_000;

export type BatchAction = 'cancel' | 'pause' | 'resume';

const CONTROLS = {
  cancel: { signal: cancelBatchSignal, control: 'CANCELLED' },
  pause: { signal: pauseBatchSignal, control: 'PAUSED' },
  resume: { signal: resumeBatchSignal, control: 'RUNNING' },
} as const satisfies Record<BatchAction, { signal: unknown; control: BatchControl }>;

/** Items whose rail the engine cannot pay by as configured (src/payouts/rails/availability.ts), one row each. */
function unavailableRails(
  items: readonly { externalId: string; method: PayoutMethod }[],
  settings: RailSettings,
): RowIssue[] {
  return items.flatMap((item, index) => {
    const reason = railUnavailable(item.method, settings);
    return reason ? [{ index, externalId: item.externalId, field: 'method', message: reason }] : [];
  });
}

function invalidRows(rows: RowIssue[]): ApiError {
  return new ApiError(
    422,
    'BATCH_INVALID',
    `${new Set(rows.map((row) => row.index)).size} row(s) of the batch are invalid; nothing was started`,
    undefined,
    rows,
  );
}
