/**
 * The batch store on one SQLite file (default `${DATA_DIR}/batches.sqlite`). The API and the worker
 * may open the same file from two processes on one machine: WAL lets readers go on while one writer
 * writes, writes take the lock up front (BEGIN IMMEDIATE) and wait up to busy_timeout for it, and no
 * write holds it for long: a batch of 100,000 items goes in as a hundred short transactions, invisible
 * until the last one marks it COMPLETE. Workers on several machines use PgBatchStore instead (see the README).
 * The work is synchronous (better-sqlite3); the methods answer with promises, as the interface asks.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { applyMigrations, openSqlite } from '../db/sqlite';
import { BATCH_MIGRATIONS } from './sqlite-batch-schema';
import {
  afterSeqOf,
  checkLimit,
  itemsPage,
  settled,
  summaryOf,
  BatchInsertInterruptedError,
  ExternalIdsTakenError,
  ITEM_STATE_RANK,
  type BatchControl,
  type BatchItem,
  type BatchStore,
  type BatchSummary,
  type CreateBatchOutcome,
  type ItemOutcome,
  type ItemState,
  type ItemsPage,
  type ListItemsOptions,
  type BatchItemView,
  type NewBatch,
} from './batch-store';
import { ItemSealer } from './item-sealer';
import type { PayoutMethod } from '../payouts/rails/methods';
import { clearColumns, itemFromRow, sealedPart } from './batch-destination';
import type { EncryptionKey } from '../temporal/payload-codec';
import { runInSlices, type Slices } from '../util/slices';

export const BATCH_STORE_FILE = 'batches.sqlite';

export function batchStorePath(dataDir: string): string {
  return path.join(dataDir, BATCH_STORE_FILE);
}

export interface SqliteBatchStoreOptions {
  /** A file path, or ':memory:' for a store that lives as long as the object. */
  file: string;
  /** Seals new rows; the engine passes its active payload encryption key. */
  encryptionKey: EncryptionKey;
  /** Open rows sealed before a key rotation. */
  previousKeys?: readonly EncryptionKey[];
  /** How long a write waits for another process's lock before failing. */
  busyTimeoutMs?: number;
  /**
   * A batch whose insert has not moved for this long is taken for abandoned (the process storing it
   * died) and discarded by the next submission, which frees its batchId and externalIds.
   */
  abandonedInsertAfterMs?: number;
}

type InsertState = 'INSERTING' | 'COMPLETE' | 'DISCARDING';

interface BatchRow {
  batch_id: string;
  request_hash: string;
  total: number;
  total_amount_cents: number;
  control: BatchControl;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  insert_state: InsertState;
  insert_progress_at: number | null;
}
interface PageRow {
  seq: number;
  external_id: string;
  amount_cents: number;
  method: PayoutMethod;
  key_type: string;
  sealed: Buffer;
  key_id: string | null;
}
interface ViewRow {
  seq: number;
  external_id: string;
  amount_cents: number;
  method: PayoutMethod;
  state: ItemState;
  fee_cents: number | null;
  failure_reason: string | null;
}
interface StateTotalsRow {
  state: ItemState;
  count: number;
  amount_cents: number;
}

// The rank of ITEM_STATE_RANK as SQL, so that "never move backwards" is checked inside the UPDATE itself.
const RANK_OF_STATE = `CASE state ${Object.entries(ITEM_STATE_RANK)
  .map(([state, rank]) => `WHEN '${state}' THEN ${rank}`)
  .join(' ')} END`;

/**
 * Items per write transaction of createBatch: a few tens of milliseconds under the lock, the longest
 * the worker's writes (outcomes, starts) ever wait for the API's, and the API's event loop for one slice.
 */
const INSERT_CHUNK = 1_000;

/** What beginInsert found under the lock. */
type InsertStart = { kind: 'insert' } | { kind: 'answer'; outcome: CreateBatchOutcome } | { kind: 'discard-first' };

export class SqliteBatchStore implements BatchStore {
  private readonly db: Database.Database;
  private readonly sealer: ItemSealer;
  private readonly statements;
  private readonly abandonedInsertAfterMs: number;

  constructor(options: SqliteBatchStoreOptions) {
    this.sealer = new ItemSealer(options.encryptionKey, options.previousKeys ?? [], 'batch-items');
    this.abandonedInsertAfterMs = options.abandonedInsertAfterMs ?? 60_000;
    // WAL: the API reads progress while the worker writes it.
    this.db = openSqlite(options.file, { busyTimeoutMs: options.busyTimeoutMs ?? 10_000 });
    applyMigrations(this.db, BATCH_MIGRATIONS);
    this.statements = this.prepare();
  }

  private prepare() {
    const db = this.db;
    return {
      batch: db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE batch_id = ?'),
      insertBatch: db.prepare<[string, string, number, number, number, number]>(
        `INSERT INTO batches (batch_id, request_hash, total, total_amount_cents, control, created_at, insert_state, insert_progress_at)
         VALUES (?, ?, ?, ?, 'RUNNING', ?, 'INSERTING', ?)`,
      ),
      insertMoved: db.prepare<[number, string]>('UPDATE batches SET insert_progress_at = ? WHERE batch_id = ?'),
      completeInsert: db.prepare<[string, string]>(
        "UPDATE batches SET insert_state = 'COMPLETE', insert_progress_at = NULL WHERE batch_id = ? AND request_hash = ? AND insert_state = 'INSERTING'",
      ),
      notComplete: db.prepare<[], { batch_id: string }>("SELECT batch_id FROM batches WHERE insert_state <> 'COMPLETE'"),
      // DISCARDING stays DISCARDING (a discard that stopped midway is finished by the next one).
      discardIfAbandoned: db.prepare<[string, number]>(
        "UPDATE batches SET insert_state = 'DISCARDING' WHERE batch_id = ? AND (insert_state = 'DISCARDING' OR (insert_state = 'INSERTING' AND insert_progress_at < ?))",
      ),
      discardOwn: db.prepare<[string, string]>("UPDATE batches SET insert_state = 'DISCARDING' WHERE batch_id = ? AND request_hash = ? AND insert_state = 'INSERTING'"),
      deleteClaims: db.prepare<[string, string, number, number]>(
        'DELETE FROM payout_ids WHERE batch_id = ? AND external_id IN (SELECT external_id FROM batch_items WHERE batch_id = ? AND seq > ? AND seq <= ?)',
      ),
      deleteItems: db.prepare<[string, number, number]>('DELETE FROM batch_items WHERE batch_id = ? AND seq > ? AND seq <= ?'),
      deleteDiscarded: db.prepare<[string]>("DELETE FROM batches WHERE batch_id = ? AND insert_state = 'DISCARDING'"),
      owner: db.prepare<[string], { batch_id: string | null }>('SELECT batch_id FROM payout_ids WHERE external_id = ?'),
      registerId: db.prepare<[string, string | null]>('INSERT OR IGNORE INTO payout_ids (external_id, batch_id) VALUES (?, ?)'),
      // DO NOTHING: an insert resumed after a crash, or running beside its twin request, meets its own rows.
      insertItem: db.prepare<[string, number, string, number, string, string, Buffer, string]>(
        'INSERT INTO batch_items (batch_id, seq, external_id, amount_cents, method, key_type, sealed, key_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      existingIds: db.prepare<[string], { external_id: string }>(
        'SELECT external_id FROM payout_ids WHERE external_id IN (SELECT value FROM json_each(?))',
      ),
      existingIdsExcept: db.prepare<[string, string], { external_id: string }>(
        'SELECT external_id FROM payout_ids WHERE external_id IN (SELECT value FROM json_each(?)) AND (batch_id IS NULL OR batch_id <> ?)',
      ),
      page: db.prepare<[string, number, number], PageRow>(
        'SELECT seq, external_id, amount_cents, method, key_type, sealed, key_id FROM batch_items WHERE batch_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      start: db.prepare<[string, number]>("UPDATE batch_items SET state = 'STARTED' WHERE batch_id = ? AND seq = ? AND state = 'PENDING'"),
      setStartedAt: db.prepare<[number, string]>('UPDATE batches SET started_at = COALESCE(started_at, ?) WHERE batch_id = ?'),
      setFinishedAt: db.prepare<[number, string]>('UPDATE batches SET finished_at = COALESCE(finished_at, ?) WHERE batch_id = ?'),
      recordOutcome: db.prepare<{ batchId: string; externalId: string; state: ItemState; rank: number; feeCents: number | null; failureReason: string | null }>(
        `UPDATE batch_items SET state = @state, fee_cents = COALESCE(@feeCents, fee_cents), failure_reason = COALESCE(@failureReason, failure_reason)
         WHERE batch_id = @batchId AND external_id = @externalId AND ${RANK_OF_STATE} < @rank`,
      ),
      cancelPending: db.prepare<[string]>("UPDATE batch_items SET state = 'CANCELLED' WHERE batch_id = ? AND state = 'PENDING'"),
      setControl: db.prepare<[BatchControl, string]>('UPDATE batches SET control = ? WHERE batch_id = ?'),
      totalsByState: db.prepare<[string], StateTotalsRow>(
        'SELECT state, COUNT(*) AS count, SUM(amount_cents) AS amount_cents FROM batch_items WHERE batch_id = ? GROUP BY state',
      ),
      items: db.prepare<[string, number, number], ViewRow>(
        'SELECT seq, external_id, amount_cents, method, state, fee_cents, failure_reason FROM batch_items WHERE batch_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      itemsInState: db.prepare<[string, ItemState, number, number], ViewRow>(
        'SELECT seq, external_id, amount_cents, method, state, fee_cents, failure_reason FROM batch_items WHERE batch_id = ? AND state = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
    };
  }

  createBatch(batch: NewBatch): Promise<{ outcome: CreateBatchOutcome }> {
    return runInSlices(this.createBatchSlices(batch));
  }

  private *createBatchSlices(batch: NewBatch): Slices<{ outcome: CreateBatchOutcome }> {
    for (let start = this.beginInsert(batch); start.kind !== 'insert'; start = this.beginInsert(batch)) {
      if (start.kind === 'answer') return { outcome: start.outcome };
      yield* this.discardSlices(batch.batchId);
    }
    for (let from = 0; from < batch.items.length; from += INSERT_CHUNK) {
      yield;
      const chunk = batch.items.slice(from, from + INSERT_CHUNK);
      // Sealing is as slow as the insert: done outside the lock, in its own slice.
      const sealed = this.sealer.sealMany(chunk.map((item) => ({ externalId: item.externalId, sealed: sealedPart(item) })));
      yield;
      try {
        if (this.insertChunk(batch, from, chunk, sealed) === 'completed-by-twin') return { outcome: 'exists' };
      } catch (error) {
        if (!(error instanceof ExternalIdsTakenError)) throw error;
        // A concurrent request registered some of the ids after validation: nothing of the batch may stay.
        if (this.statements.discardOwn.run(batch.batchId, batch.requestHash).changes === 1) yield* this.discardSlices(batch.batchId);
        throw error;
      }
    }
    return { outcome: this.completeInsert(batch) };
  }

  /** Under the lock: a new batch, the resumption of this very request, an answer at once, or an abandoned batch in the way. */
  private beginInsert(batch: NewBatch): InsertStart {
    return this.db
      .transaction((): InsertStart => {
        const stored = this.statements.batch.get(batch.batchId);
        const now = Date.now();
        if (!stored) {
          const totalAmountCents = batch.items.reduce((sum, item) => sum + item.amountCents, 0);
          this.statements.insertBatch.run(batch.batchId, batch.requestHash, batch.items.length, totalAmountCents, batch.createdAt.getTime(), now);
          return { kind: 'insert' };
        }
        const sameRequest = stored.request_hash === batch.requestHash;
        if (stored.insert_state === 'COMPLETE') return { kind: 'answer', outcome: sameRequest ? 'exists' : 'conflict' };
        // The same request again (a retry after a crash, or while the first is still storing): carry on where it is.
        if (stored.insert_state === 'INSERTING' && sameRequest) {
          this.statements.insertMoved.run(now, batch.batchId);
          return { kind: 'insert' };
        }
        // Another batch under this id, never completed: in the way only if its insert was abandoned.
        if (this.statements.discardIfAbandoned.run(batch.batchId, now - this.abandonedInsertAfterMs).changes === 1) return { kind: 'discard-first' };
        return { kind: 'answer', outcome: 'conflict' };
      })
      .immediate();
  }

  /** One short transaction: registers the chunk's externalIds and stores its items; throws ExternalIdsTakenError (rolled back) when some belong to another payout. */
  private insertChunk(batch: NewBatch, from: number, chunk: readonly NewBatch['items'][number][], sealed: readonly Buffer[]): 'inserted' | 'completed-by-twin' {
    return this.db
      .transaction(() => {
        const stored = this.statements.batch.get(batch.batchId);
        if (stored?.insert_state === 'COMPLETE' && stored.request_hash === batch.requestHash) return 'completed-by-twin';
        if (stored?.insert_state !== 'INSERTING' || stored.request_hash !== batch.requestHash) throw new BatchInsertInterruptedError(batch.batchId);
        this.statements.insertMoved.run(Date.now(), batch.batchId);
        const taken: string[] = [];
        chunk.forEach((item, offset) => {
          const registered = this.statements.registerId.run(item.externalId, batch.batchId).changes === 1;
          if (!registered && this.statements.owner.get(item.externalId)?.batch_id !== batch.batchId) {
            taken.push(item.externalId);
            return;
          }
          const columns = clearColumns(item);
          this.statements.insertItem.run(batch.batchId, from + offset + 1, columns.externalId, columns.amountCents, columns.method, columns.keyType, sealed[offset] as Buffer, this.sealer.keyId);
        });
        if (taken.length > 0) throw new ExternalIdsTakenError(taken);
        return 'inserted';
      })
      .immediate();
  }

  private completeInsert(batch: NewBatch): CreateBatchOutcome {
    return this.db
      .transaction((): CreateBatchOutcome => {
        if (this.statements.completeInsert.run(batch.batchId, batch.requestHash).changes === 1) return 'created';
        const stored = this.statements.batch.get(batch.batchId);
        if (stored?.insert_state === 'COMPLETE' && stored.request_hash === batch.requestHash) return 'exists';
        throw new BatchInsertInterruptedError(batch.batchId);
      })
      .immediate();
  }

  /**
   * Deletes a batch marked DISCARDING, in short transactions: its registered ids (only those it holds)
   * and its items, then its row. Two processes may discard the same batch: each transaction first checks
   * that the row is still DISCARDING, so the slower one stops rather than delete a new batch of that id.
   */
  private *discardSlices(batchId: string): Slices<void> {
    const total = this.statements.batch.get(batchId)?.total ?? 0;
    for (let after = 0; after < total; after += INSERT_CHUNK) {
      yield;
      const goesOn = this.db
        .transaction(() => {
          if (this.statements.batch.get(batchId)?.insert_state !== 'DISCARDING') return false;
          this.statements.deleteClaims.run(batchId, batchId, after, after + INSERT_CHUNK);
          this.statements.deleteItems.run(batchId, after, after + INSERT_CHUNK);
          return true;
        })
        .immediate();
      if (!goesOn) return;
    }
    this.statements.deleteDiscarded.run(batchId);
  }

  discardAbandonedBatches(): Promise<{ discarded: number }> {
    return runInSlices(this.discardAbandonedSlices());
  }

  private *discardAbandonedSlices(): Slices<{ discarded: number }> {
    let discarded = 0;
    for (const { batch_id: batchId } of this.statements.notComplete.all()) {
      // Marked under the lock, so a batch whose insert moved meanwhile is left alone.
      if (this.statements.discardIfAbandoned.run(batchId, Date.now() - this.abandonedInsertAfterMs).changes === 0) continue;
      yield* this.discardSlices(batchId);
      discarded += 1;
    }
    return { discarded };
  }

  existingExternalIds(ids: readonly string[], options: { exceptBatchId?: string } = {}): Promise<Set<string>> {
    return settled(() => this.existingExternalIdsNow(ids, options));
  }

  private existingExternalIdsNow(ids: readonly string[], options: { exceptBatchId?: string }): Set<string> {
    if (ids.length === 0) return new Set();
    // One statement with the ids as a JSON array: no limit on bound parameters, one round through the index.
    const json = JSON.stringify(ids);
    const rows =
      options.exceptBatchId === undefined ? this.statements.existingIds.all(json) : this.statements.existingIdsExcept.all(json, options.exceptBatchId);
    return new Set(rows.map((row) => row.external_id));
  }

  payoutOwner(externalId: string): Promise<{ batchId: string | null } | undefined> {
    return settled(() => {
      const row = this.statements.owner.get(externalId);
      return row ? { batchId: row.batch_id } : undefined;
    });
  }

  registerPayout(externalId: string): Promise<boolean> {
    return settled(() => this.statements.registerId.run(externalId, null).changes === 1);
  }

  readPage(batchId: string, afterSeq: number, limit: number): Promise<BatchItem[]> {
    return settled(() =>
      this.statements.page.all(batchId, afterSeq, checkLimit(limit)).map((row) => {
        const columns = { externalId: row.external_id, amountCents: row.amount_cents, method: row.method, keyType: row.key_type };
        return { seq: row.seq, ...itemFromRow(columns, this.sealer.open(row.external_id, row.sealed, row.key_id)) };
      }),
    );
  }

  markStarted(batchId: string, seqs: readonly number[], at: Date = new Date()): Promise<void> {
    return settled(() =>
      this.db
        .transaction(() => {
          for (const seq of seqs) this.statements.start.run(batchId, seq);
          this.statements.setStartedAt.run(at.getTime(), batchId);
        })
        .immediate(),
    );
  }

  recordOutcomes(batchId: string, outcomes: readonly ItemOutcome[]): Promise<{ changed: number }> {
    return settled(() => this.recordOutcomesNow(batchId, outcomes));
  }

  private recordOutcomesNow(batchId: string, outcomes: readonly ItemOutcome[]): { changed: number } {
    return this.db
      .transaction(() => {
        let changed = 0;
        for (const outcome of outcomes) {
          changed += this.statements.recordOutcome.run({
            batchId,
            externalId: outcome.externalId,
            state: outcome.state,
            rank: ITEM_STATE_RANK[outcome.state],
            feeCents: outcome.feeCents ?? null,
            failureReason: outcome.failureReason ?? null,
          }).changes;
        }
        return { changed };
      })
      .immediate();
  }

  cancelPending(batchId: string): Promise<{ cancelled: number }> {
    return settled(() =>
      this.db
        .transaction(() => {
          this.statements.setControl.run('CANCELLED', batchId);
          return { cancelled: this.statements.cancelPending.run(batchId).changes };
        })
        .immediate(),
    );
  }

  setControl(batchId: string, control: BatchControl): Promise<void> {
    return settled(() => void this.statements.setControl.run(control, batchId));
  }

  markFinished(batchId: string, at: Date = new Date()): Promise<void> {
    return settled(() => void this.statements.setFinishedAt.run(at.getTime(), batchId));
  }

  summary(batchId: string): Promise<BatchSummary | undefined> {
    // One read transaction: the batch row and the counts come from the same snapshot.
    return settled(() =>
      this.db.transaction(() => {
        const batch = this.statements.batch.get(batchId);
        // A batch still being stored is not there yet: not shown, not controllable.
        if (batch?.insert_state !== 'COMPLETE') return undefined;
        const totals = this.statements.totalsByState.all(batchId).map((row) => ({ state: row.state, count: row.count, amountCents: row.amount_cents }));
        return summaryOf(
          {
            batchId,
            total: batch.total,
            totalAmountCents: batch.total_amount_cents,
            control: batch.control,
            createdAt: new Date(batch.created_at),
            ...(batch.started_at === null ? {} : { startedAt: new Date(batch.started_at) }),
            ...(batch.finished_at === null ? {} : { finishedAt: new Date(batch.finished_at) }),
          },
          totals,
        );
      })(),
    );
  }

  listItems(batchId: string, options: ListItemsOptions): Promise<ItemsPage> {
    return settled(() => {
      const limit = checkLimit(options.limit);
      const afterSeq = afterSeqOf(options.cursor);
      // One row more than asked tells whether another page follows without a COUNT.
      const rows =
        options.status === undefined
          ? this.statements.items.all(batchId, afterSeq, limit + 1)
          : this.statements.itemsInState.all(batchId, options.status, afterSeq, limit + 1);
      return itemsPage(rows.map(toView), limit);
    });
  }

  close(): Promise<void> {
    return settled(() => {
      if (this.db.open) this.db.close();
    });
  }
}

function toView(row: ViewRow): BatchItemView {
  return {
    seq: row.seq,
    externalId: row.external_id,
    amountCents: row.amount_cents,
    method: row.method,
    state: row.state,
    ...(row.fee_cents === null ? {} : { feeCents: row.fee_cents }),
    ...(row.failure_reason === null ? {} : { failureReason: row.failure_reason }),
  };
}
