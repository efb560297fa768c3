/**
 * The batch store on one SQLite file (default `${DATA_DIR}/batches.sqlite`). The API and the worker
 * may open the same file from two processes on one machine: WAL lets readers go on while one writer
 * writes, writes take the lock up front (BEGIN IMMEDIATE) and wait up to busy_timeout for it. Workers
 * on several machines need a networked implementation of BatchStore instead (see the README).
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { applyMigrations, openSqlite } from '../db/sqlite';
import { BATCH_MIGRATIONS } from './sqlite-batch-schema';
import {
  decodeItemsCursor,
  emptyCounts,
  encodeItemsCursor,
  ExternalIdsTakenError,
  ITEM_STATE_RANK,
  type BatchControl,
  type BatchItem,
  type BatchItemView,
  type BatchStore,
  type BatchSummary,
  type CreateBatchOutcome,
  type ItemOutcome,
  type ItemState,
  type ItemsPage,
  type ListItemsOptions,
  type NewBatch,
} from './batch-store';
import { ItemSealer } from './item-sealer';
import type { PixKeyType } from '../pix/keys';

export const BATCH_STORE_FILE = 'batches.sqlite';

export function batchStorePath(dataDir: string): string {
  return path.join(dataDir, BATCH_STORE_FILE);
}

export interface SqliteBatchStoreOptions {
  /** A file path, or ':memory:' for a store that lives as long as the object. */
  file: string;
  /** 32 bytes; the engine passes its payload encryption key. */
  encryptionKey: Buffer;
  /** How long a write waits for another process's lock before failing. */
  busyTimeoutMs?: number;
}

interface BatchRow {
  batch_id: string;
  request_hash: string;
  total: number;
  total_amount_cents: number;
  control: BatchControl;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}
interface PageRow {
  seq: number;
  external_id: string;
  amount_cents: number;
  key_type: PixKeyType;
  sealed: Buffer;
}
interface ViewRow {
  seq: number;
  external_id: string;
  amount_cents: number;
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

const MAX_PAGE = 10_000;

export class SqliteBatchStore implements BatchStore {
  private readonly db: Database.Database;
  private readonly sealer: ItemSealer;
  private readonly statements;

  constructor(options: SqliteBatchStoreOptions) {
    this.sealer = new ItemSealer(options.encryptionKey);
    // WAL: the API reads progress while the worker writes it.
    this.db = openSqlite(options.file, { busyTimeoutMs: options.busyTimeoutMs ?? 10_000 });
    applyMigrations(this.db, BATCH_MIGRATIONS);
    this.statements = this.prepare();
  }

  private prepare() {
    const db = this.db;
    return {
      batch: db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE batch_id = ?'),
      insertBatch: db.prepare<[string, string, number, number, number]>(
        'INSERT INTO batches (batch_id, request_hash, total, total_amount_cents, control, created_at) VALUES (?, ?, ?, ?, \'RUNNING\', ?)',
      ),
      owner: db.prepare<[string], { batch_id: string | null }>('SELECT batch_id FROM payout_ids WHERE external_id = ?'),
      registerId: db.prepare<[string, string | null]>('INSERT OR IGNORE INTO payout_ids (external_id, batch_id) VALUES (?, ?)'),
      insertItem: db.prepare<[string, number, string, number, string, Buffer]>(
        'INSERT INTO batch_items (batch_id, seq, external_id, amount_cents, key_type, sealed) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      existingIds: db.prepare<[string], { external_id: string }>(
        'SELECT external_id FROM payout_ids WHERE external_id IN (SELECT value FROM json_each(?))',
      ),
      existingIdsExcept: db.prepare<[string, string], { external_id: string }>(
        'SELECT external_id FROM payout_ids WHERE external_id IN (SELECT value FROM json_each(?)) AND (batch_id IS NULL OR batch_id <> ?)',
      ),
      page: db.prepare<[string, number, number], PageRow>(
        'SELECT seq, external_id, amount_cents, key_type, sealed FROM batch_items WHERE batch_id = ? AND seq > ? ORDER BY seq LIMIT ?',
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
        'SELECT seq, external_id, amount_cents, state, fee_cents, failure_reason FROM batch_items WHERE batch_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      itemsInState: db.prepare<[string, ItemState, number, number], ViewRow>(
        'SELECT seq, external_id, amount_cents, state, fee_cents, failure_reason FROM batch_items WHERE batch_id = ? AND state = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
    };
  }

  createBatch(batch: NewBatch): { outcome: CreateBatchOutcome } {
    const known = this.statements.batch.get(batch.batchId);
    if (known) return { outcome: known.request_hash === batch.requestHash ? 'exists' : 'conflict' };
    // Sealing is the slow part: do it before taking the write lock, so the other process waits less.
    const sealed = this.sealer.sealMany(batch.items);
    const totalAmountCents = batch.items.reduce((sum, item) => sum + item.amountCents, 0);
    const write = this.db.transaction((): CreateBatchOutcome => {
      // Checked again under the lock: another process may have stored this batch since the read above.
      const stored = this.statements.batch.get(batch.batchId);
      if (stored) return stored.request_hash === batch.requestHash ? 'exists' : 'conflict';
      this.statements.insertBatch.run(batch.batchId, batch.requestHash, batch.items.length, totalAmountCents, batch.createdAt.getTime());
      const taken: string[] = [];
      batch.items.forEach((item, index) => {
        if (this.statements.registerId.run(item.externalId, batch.batchId).changes === 0) {
          taken.push(item.externalId);
          return;
        }
        this.statements.insertItem.run(batch.batchId, index + 1, item.externalId, item.amountCents, item.keyType, sealed[index] as Buffer);
      });
      // Throwing rolls the whole batch back: a batch is stored complete or not at all.
      if (taken.length > 0) throw new ExternalIdsTakenError(taken);
      return 'created';
    });
    return { outcome: write.immediate() };
  }

  existingExternalIds(ids: readonly string[], options: { exceptBatchId?: string } = {}): Set<string> {
    if (ids.length === 0) return new Set();
    // One statement with the ids as a JSON array: no limit on bound parameters, one round through the index.
    const json = JSON.stringify(ids);
    const rows =
      options.exceptBatchId === undefined ? this.statements.existingIds.all(json) : this.statements.existingIdsExcept.all(json, options.exceptBatchId);
    return new Set(rows.map((row) => row.external_id));
  }

  payoutOwner(externalId: string): { batchId: string | null } | undefined {
    const row = this.statements.owner.get(externalId);
    return row ? { batchId: row.batch_id } : undefined;
  }

  registerPayout(externalId: string): boolean {
    return this.statements.registerId.run(externalId, null).changes === 1;
  }

  readPage(batchId: string, afterSeq: number, limit: number): BatchItem[] {
    return this.statements.page.all(batchId, afterSeq, checkLimit(limit)).map((row) => {
      const fields = this.sealer.open(row.external_id, row.sealed);
      return {
        seq: row.seq,
        externalId: row.external_id,
        amountCents: row.amount_cents,
        pixKey: fields.pixKey,
        keyType: row.key_type,
        ...(fields.description === undefined ? {} : { description: fields.description }),
      };
    });
  }

  markStarted(batchId: string, seqs: readonly number[], at: Date = new Date()): void {
    this.db
      .transaction(() => {
        for (const seq of seqs) this.statements.start.run(batchId, seq);
        this.statements.setStartedAt.run(at.getTime(), batchId);
      })
      .immediate();
  }

  recordOutcomes(batchId: string, outcomes: readonly ItemOutcome[]): { changed: number } {
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

  cancelPending(batchId: string): { cancelled: number } {
    return this.db
      .transaction(() => {
        this.statements.setControl.run('CANCELLED', batchId);
        return { cancelled: this.statements.cancelPending.run(batchId).changes };
      })
      .immediate();
  }

  setControl(batchId: string, control: BatchControl): void {
    this.statements.setControl.run(control, batchId);
  }

  markFinished(batchId: string, at: Date = new Date()): void {
    this.statements.setFinishedAt.run(at.getTime(), batchId);
  }

  summary(batchId: string): BatchSummary | undefined {
    // One read transaction: the batch row and the counts come from the same snapshot.
    return this.db.transaction(() => {
      const batch = this.statements.batch.get(batchId);
      if (!batch) return undefined;
      const countsByState = emptyCounts();
      for (const row of this.statements.totalsByState.all(batchId)) countsByState[row.state] = { count: row.count, amountCents: row.amount_cents };
      return {
        batchId,
        total: batch.total,
        totalAmountCents: batch.total_amount_cents,
        control: batch.control,
        createdAt: new Date(batch.created_at),
        ...(batch.started_at === null ? {} : { startedAt: new Date(batch.started_at) }),
        ...(batch.finished_at === null ? {} : { finishedAt: new Date(batch.finished_at) }),
        countsByState,
        done: countsByState.PENDING.count === 0 && countsByState.STARTED.count === 0,
        paidAmountCents: countsByState.COMPLETED.amountCents,
      };
    })();
  }

  listItems(batchId: string, options: ListItemsOptions): ItemsPage {
    const limit = checkLimit(options.limit);
    const afterSeq = options.cursor === undefined ? 0 : decodeItemsCursor(options.cursor);
    if (afterSeq === undefined) throw new RangeError('cursor is not valid');
    // One row more than asked tells whether another page follows without a COUNT.
    const rows =
      options.status === undefined
        ? this.statements.items.all(batchId, afterSeq, limit + 1)
        : this.statements.itemsInState.all(batchId, options.status, afterSeq, limit + 1);
    const items = rows.slice(0, limit).map(toView);
    const last = items[items.length - 1];
    return rows.length > limit && last ? { items, nextCursor: encodeItemsCursor(last.seq) } : { items };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new RangeError(`limit must be an integer from 1 to ${MAX_PAGE}`);
  return limit;
}

function toView(row: ViewRow): BatchItemView {
  return {
    seq: row.seq,
    externalId: row.external_id,
    amountCents: row.amount_cents,
    state: row.state,
    ...(row.fee_cents === null ? {} : { feeCents: row.fee_cents }),
    ...(row.failure_reason === null ? {} : { failureReason: row.failure_reason }),
  };
}
