/**
 * Where a validated batch lives between the API that accepts it and the workflow that pays it. The
 * items never travel through Temporal in one payload: the API stores them here, the batch workflow
 * reads them page by page through an activity and writes progress back, and the API reads progress
 * from here without asking Temporal. Every write is idempotent so that activity retries change nothing,
 * and every method returns a promise: the store may be a file on this machine (SQLite) or a server that
 * workers on several machines share (PostgreSQL).
 */
import type { PayoutRequest } from '../payouts/payout-request';
import type { PayoutMethod } from '../payouts/rails/methods';

export const ITEM_STATES = ['PENDING', 'STARTED', 'COMPLETED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW'] as const;
export type ItemState = (typeof ITEM_STATES)[number];
/** What the workflow may report about an item; PENDING is only ever the initial state. */
export type OutcomeState = Exclude<ItemState, 'PENDING'>;

export const BATCH_CONTROLS = ['RUNNING', 'PAUSED', 'CANCELLED'] as const;
export type BatchControl = (typeof BATCH_CONTROLS)[number];

/**
 * How far an item has come. A write only ever moves an item to a higher rank, so a replayed or late
 * outcome never undoes a newer one; NEEDS_REVIEW may still settle, the three final states never move.
 */
export const ITEM_STATE_RANK: Readonly<Record<ItemState, number>> = {
  PENDING: 0,
  STARTED: 1,
  NEEDS_REVIEW: 2,
  COMPLETED: 3,
  FAILED: 3,
  CANCELLED: 3,
};

/** An item as the workflow needs it to start a payout (the PIX key decrypted). */
export type BatchItem = PayoutRequest & { seq: number };

/** An item as the API shows it: its rail but not its destination, no description. */
export interface BatchItemView {
  seq: number;
  externalId: string;
  amountCents: number;
  method: PayoutMethod;
  state: ItemState;
  feeCents?: number;
  failureReason?: string;
}

export interface ItemOutcome {
  externalId: string;
  state: OutcomeState;
  feeCents?: number;
  failureReason?: string;
}

export interface StateTotals {
  count: number;
  amountCents: number;
}

export interface BatchSummary {
  batchId: string;
  total: number;
  totalAmountCents: number;
  control: BatchControl;
  createdAt: Date;
  startedAt?: Date;
  finishedAt?: Date;
  /** Every state is present, with zeros where no item is in it. */
  countsByState: Record<ItemState, StateTotals>;
  /** No item is PENDING or STARTED. */
  done: boolean;
  /** Sum of the COMPLETED items' amounts. */
  paidAmountCents: number;
}

export interface NewBatch {
  batchId: string;
  items: readonly PayoutRequest[];
  /** batchRequestHash of the items: tells a retry of the same batch from a different batch under the same id. */
  requestHash: string;
  createdAt: Date;
}

export type CreateBatchOutcome = 'created' | 'exists' | 'conflict';

export interface ListItemsOptions {
  status?: ItemState;
  /** From a previous page's nextCursor. */
  cursor?: string;
  limit: number;
}

export interface ItemsPage {
  items: BatchItemView[];
  /** Present when more items follow. */
  nextCursor?: string;
}

export interface BatchStore {
  /**
   * Stores the batch and registers its externalIds, in short writes that leave room for the other
   * process's, yet atomically as readers see it: the batch is visible (summary) only once every item is
   * stored. Same batchId and same hash: 'exists', nothing written, or the insert that stopped midway
   * (a crash, a twin request still running) carried on; same batchId, different hash: 'conflict'.
   * Throws ExternalIdsTakenError when an item's externalId was registered meanwhile (validation checked
   * it, but a concurrent request won): nothing of the batch stays.
   */
  createBatch(batch: NewBatch): Promise<{ outcome: CreateBatchOutcome }>;
  /**
   * Deletes what inserts that stopped moving long ago left (the API process died mid-insert), so that
   * their batchIds and externalIds are free again. Called before a new batch is validated.
   */
  discardAbandonedBatches(): Promise<{ discarded: number }>;
  /**
   * Which of `ids` already belong to a payout the store knows (batch items and registerPayout).
   * `exceptBatchId` leaves out the items of that batch, so that re-submitting a batch is not refused
   * as duplicates of itself before createBatch can answer 'exists'.
   */
  existingExternalIds(ids: readonly string[], options?: { exceptBatchId?: string }): Promise<Set<string>>;
  /** Who holds this externalId: a batch (batchId), a single payout (null), or nobody (undefined). */
  payoutOwner(externalId: string): Promise<{ batchId: string | null } | undefined>;
  /** Registers a single payout's externalId; true when it was not known before. */
  registerPayout(externalId: string): Promise<boolean>;
  /** Items with seq > afterSeq, in seq order (seqs are 1..total), PIX keys decrypted. */
  readPage(batchId: string, afterSeq: number, limit: number): Promise<BatchItem[]>;
  /** PENDING items with these seqs become STARTED; the batch's startedAt is set on the first call. */
  markStarted(batchId: string, seqs: readonly number[], at?: Date): Promise<void>;
  /** Applies each outcome unless the item is already at that rank or beyond (see ITEM_STATE_RANK). Returns how many items changed. */
  recordOutcomes(batchId: string, outcomes: readonly ItemOutcome[]): Promise<{ changed: number }>;
  /** Every PENDING item becomes CANCELLED, and the batch's control CANCELLED. */
  cancelPending(batchId: string): Promise<{ cancelled: number }>;
  setControl(batchId: string, control: BatchControl): Promise<void>;
  /** Sets finishedAt once; later calls keep the first time. */
  markFinished(batchId: string, at?: Date): Promise<void>;
  /** Undefined for an unknown batch and for one not yet completely stored. */
  summary(batchId: string): Promise<BatchSummary | undefined>;
  /** Keyset pagination by seq, optionally only the items in one state. */
  listItems(batchId: string, options: ListItemsOptions): Promise<ItemsPage>;
  close(): Promise<void>;
}

/** A concurrent request registered some of the batch's externalIds first; nothing was stored. */
export class ExternalIdsTakenError extends Error {
  constructor(readonly externalIds: readonly string[]) {
    super(`${externalIds.length} externalId(s) of the batch already belong to another payout`);
    this.name = 'ExternalIdsTakenError';
  }
}

/** Another process took this batch's insert for abandoned and discarded it meanwhile; the request may be sent again. */
export class BatchInsertInterruptedError extends Error {
  constructor(readonly batchId: string) {
    super(`the insert of batch ${batchId} was interrupted; nothing of it is stored`);
    this.name = 'BatchInsertInterruptedError';
  }
}

/**
 * Clients treat the cursor as opaque; its letter says which paging key follows, so the key can change
 * without breaking them. Its shape is a pattern the OpenAPI document can state: every text of that
 * shape is a valid place to continue from.
 */
export const ITEMS_CURSOR_PATTERN = /^s(\d{1,15})$/;

export function encodeItemsCursor(afterSeq: number): string {
  return `s${afterSeq}`;
}

/** The seq a cursor stands for, or undefined when the text is not a cursor this store made. */
export function decodeItemsCursor(cursor: string): number | undefined {
  const digits = ITEMS_CURSOR_PATTERN.exec(cursor)?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/** Page sizes readPage and listItems accept. */
export const MAX_PAGE = 10_000;

export function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE)
    throw new RangeError(`limit must be an integer from 1 to ${MAX_PAGE}`);
  return limit;
}

/** The seq to list after, from an optional cursor; RangeError when the cursor is not one of ours. */
export function afterSeqOf(cursor: string | undefined): number {
  const afterSeq = cursor === undefined ? 0 : decodeItemsCursor(cursor);
  if (afterSeq === undefined) throw new RangeError('cursor is not valid');
  return afterSeq;
}

/** A page from rows fetched with one row more than `limit` (which tells whether another page follows). */
export function itemsPage(rows: readonly BatchItemView[], limit: number): ItemsPage {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return rows.length > limit && last ? { items, nextCursor: encodeItemsCursor(last.seq) } : { items };
}

/** Every item of a batch in seq order, `pageSize` at a time; each page is read only when the previous one has been taken. */
export async function* itemPages(
  store: Pick<BatchStore, 'listItems'>,
  batchId: string,
  pageSize: number,
): AsyncGenerator<BatchItemView[]> {
  let cursor: string | undefined;
  do {
    const page = await store.listItems(batchId, { limit: pageSize, ...(cursor === undefined ? {} : { cursor }) });
    yield page.items;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
}

/** A summary from the batch's columns and its totals by state. */
export function summaryOf(
  batch: Pick<
    BatchSummary,
    'batchId' | 'total' | 'totalAmountCents' | 'control' | 'createdAt' | 'startedAt' | 'finishedAt'
  >,
  totals: readonly { state: ItemState; count: number; amountCents: number }[],
): BatchSummary {
  const countsByState = emptyCounts();
  for (const row of totals) countsByState[row.state] = { count: row.count, amountCents: row.amountCents };
  return {
    ...batch,
    countsByState,
    done: countsByState.PENDING.count === 0 && countsByState.STARTED.count === 0,
    paidAmountCents: countsByState.COMPLETED.amountCents,
  };
}

export function emptyCounts(): Record<ItemState, StateTotals> {
  return Object.fromEntries(ITEM_STATES.map((state) => [state, { count: 0, amountCents: 0 }])) as Record<
    ItemState,
    StateTotals
  >;
}
