/**
 * The batch store on a PostgreSQL server (BATCH_STORE_URL), for an API and workers on several machines.
 * Same semantics as SqliteBatchStore: createBatch in short transactions, invisible until COMPLETE,
 * idempotent by batchId and request hash; outcomes never move an item backwards. Concurrent processes
 * cannot undo each other's writes: each write is one statement whose WHERE carries its condition (rank,
 * state), which PostgreSQL checks again on the newest row version when it waits for another writer's
 * lock; the steps of createBatch and of a discard lock their batch's row first.
 */
import { Pool, type PoolClient } from 'pg';
import { applyPgMigrations, inTransaction, retryingConflicts } from '../db/postgres';
import { PG_BATCH_MIGRATIONS } from './pg-batch-schema';
import {
  afterSeqOf,
  checkLimit,
  itemsPage,
  summaryOf,
  BatchInsertInterruptedError,
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
import type { PayoutMethod } from '../payouts/rails/methods';
import { clearColumns, itemFromRow, sealedPart } from './batch-destination';
import type { EncryptionKey } from '../temporal/payload-codec';
import { yieldToEventLoop } from '../util/slices';

export interface PgBatchStoreOptions {
  /** postgres://user:password@host:port/database */
  connectionString: string;
  /** Seals new rows; the engine passes its active payload encryption key. */
  encryptionKey: EncryptionKey;
  /** Open rows sealed before a key rotation. */
  previousKeys?: readonly EncryptionKey[];
  /** See SqliteBatchStoreOptions.abandonedInsertAfterMs. */
  abandonedInsertAfterMs?: number;
  /** Connections of this process to the server. */
  poolSize?: number;
}

type InsertState = 'INSERTING' | 'COMPLETE' | 'DISCARDING';

interface BatchRow {
  request_hash: string;
  total: number;
  total_amount_cents: string;
  control: BatchControl;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  insert_state: InsertState;
}
interface PageRow {
  seq: number;
  external_id: string;
  amount_cents: string;
  method: PayoutMethod;
  key_type: string;
  sealed: Buffer;
  key_id: string;
}
interface ViewRow {
  seq: number;
  external_id: string;
  amount_cents: string;
  method: PayoutMethod;
  state: ItemState;
  fee_cents: string | null;
  failure_reason: string | null;
}

const RANK_OF_STATE = `CASE i.state ${Object.entries(ITEM_STATE_RANK)
  .map(([state, rank]) => `WHEN '${state}' THEN ${rank}`)
  .join(' ')} END`;

/** Items per transaction of createBatch: one multi-row statement each for ids and items, a few tens of milliseconds. */
const INSERT_CHUNK = 2_000;

const VIEW_COLUMNS = 'seq, external_id, amount_cents, method, state, fee_cents, failure_reason';

type InsertStart = { kind: 'insert' } | { kind: 'answer'; outcome: CreateBatchOutcome } | { kind: 'discard-first' };

export class PgBatchStore implements BatchStore {
  private readonly pool: Pool;
  private readonly sealer: ItemSealer;
  private readonly abandonedInsertAfterMs: number;

  /** Use PgBatchStore.open: the schema must be migrated before the store is used. */
  private constructor(options: PgBatchStoreOptions) {
    this.sealer = new ItemSealer(options.encryptionKey, options.previousKeys ?? [], 'batch-items');
    this.abandonedInsertAfterMs = options.abandonedInsertAfterMs ?? 60_000;
    this.pool = new Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 });
    // An idle connection the server dropped must not take the process down; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  /** Connects and applies the migrations not yet applied. */
  static async open(options: PgBatchStoreOptions): Promise<PgBatchStore> {
    const store = new PgBatchStore(options);
    try {
      await applyPgMigrations(store.pool, PG_BATCH_MIGRATIONS);
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async createBatch(batch: NewBatch): Promise<{ outcome: CreateBatchOutcome }> {
    for (let start = await this.beginInsert(batch); start.kind !== 'insert'; start = await this.beginInsert(batch)) {
      if (start.kind === 'answer') return { outcome: start.outcome };
      await this.discard(batch.batchId);
    }
    for (let from = 0; from < batch.items.length; from += INSERT_CHUNK) {
      const chunk = batch.items.slice(from, from + INSERT_CHUNK);
      // Sealing is CPU work: the event loop gets a turn before it, as it does during each round trip.
      await yieldToEventLoop();
      const sealed = this.sealer.sealMany(chunk.map((item) => ({ externalId: item.externalId, sealed: sealedPart(item) })));
      try {
        if ((await this.insertChunk(batch, from, chunk, sealed)) === 'completed-by-twin') return { outcome: 'exists' };
      } catch (error) {
        if (!(error instanceof ExternalIdsTakenError)) throw error;
        // A concurrent request registered some of the ids after validation: nothing of the batch may stay.
        const discarding = await this.pool.query(
          "UPDATE batches SET insert_state = 'DISCARDING' WHERE batch_id = $1 AND request_hash = $2 AND insert_state = 'INSERTING'",
          [batch.batchId, batch.requestHash],
        );
        if (discarding.rowCount === 1) await this.discard(batch.batchId);
        throw error;
      }
    }
    return { outcome: await this.completeInsert(batch) };
  }

  private beginInsert(batch: NewBatch): Promise<InsertStart> {
    return retryingConflicts(() => inTransaction(this.pool, async (client): Promise<InsertStart> => {
      const totalAmountCents = batch.items.reduce((sum, item) => sum + item.amountCents, 0);
      const inserted = await client.query(
        `INSERT INTO batches (batch_id, request_hash, total, total_amount_cents, control, created_at, insert_state, insert_progress_at)
         VALUES ($1, $2, $3, $4, 'RUNNING', $5, 'INSERTING', now()) ON CONFLICT (batch_id) DO NOTHING`,
        [batch.batchId, batch.requestHash, batch.items.length, totalAmountCents, batch.createdAt],
      );
      if (inserted.rowCount === 1) return { kind: 'insert' };
      const stored = await lockBatch(client, batch.batchId);
      // Deleted by a discard between the two statements: the next round inserts it.
      if (!stored) return { kind: 'discard-first' };
      const sameRequest = stored.request_hash === batch.requestHash;
      if (stored.insert_state === 'COMPLETE') return { kind: 'answer', outcome: sameRequest ? 'exists' : 'conflict' };
      // The same request again (a retry after a crash, or while the first is still storing): carry on where it is.
      if (stored.insert_state === 'INSERTING' && sameRequest) {
        await client.query('UPDATE batches SET insert_progress_at = now() WHERE batch_id = $1', [batch.batchId]);
        return { kind: 'insert' };
      }
      // Another batch under this id, never completed: in the way only if its insert was abandoned.
      if (await this.markDiscardingIfAbandoned(client, batch.batchId)) return { kind: 'discard-first' };
      return { kind: 'answer', outcome: 'conflict' };
    }));
  }

  /** One short transaction: registers the chunk's externalIds and stores its items; throws ExternalIdsTakenError (rolled back) when some belong to another payout. */
  private insertChunk(batch: NewBatch, from: number, chunk: readonly NewBatch['items'][number][], sealed: readonly Buffer[]): Promise<'inserted' | 'completed-by-twin'> {
    // Rolled back whole when PostgreSQL picks it as a deadlock's victim, so running it again is safe.
    return retryingConflicts(() => this.insertChunkOnce(batch, from, chunk, sealed));
  }

  private insertChunkOnce(batch: NewBatch, from: number, chunk: readonly NewBatch['items'][number][], sealed: readonly Buffer[]): Promise<'inserted' | 'completed-by-twin'> {
    return inTransaction(this.pool, async (client) => {
      // The batch's row lock: a twin request's chunk or a discard of this batch waits for this one.
      const stored = await lockBatch(client, batch.batchId);
      if (stored?.insert_state === 'COMPLETE' && stored.request_hash === batch.requestHash) return 'completed-by-twin';
      if (stored?.insert_state !== 'INSERTING' || stored.request_hash !== batch.requestHash) throw new BatchInsertInterruptedError(batch.batchId);
      await client.query('UPDATE batches SET insert_progress_at = now() WHERE batch_id = $1', [batch.batchId]);
      const ids = chunk.map((item) => item.externalId);
      // In id order: two batches claiming overlapping ids lock them in the same order, which leaves no room for a deadlock.
      await client.query('INSERT INTO payout_ids (external_id, batch_id) SELECT id, $2 FROM unnest($1::text[]) AS id ORDER BY id ON CONFLICT DO NOTHING', [ids, batch.batchId]);
      const taken = await client.query<{ external_id: string }>(
        'SELECT external_id FROM payout_ids WHERE external_id = ANY($1::text[]) AND batch_id IS DISTINCT FROM $2',
        [ids, batch.batchId],
      );
      if (taken.rows.length > 0) throw new ExternalIdsTakenError(taken.rows.map((row) => row.external_id));
      const columns = chunk.map(clearColumns);
      // DO NOTHING: an insert resumed after a crash, or running beside its twin request, meets its own rows.
      await client.query(
        `INSERT INTO batch_items (batch_id, seq, external_id, amount_cents, method, key_type, sealed, key_id)
         SELECT $1, item.* , $8 FROM unnest($2::int[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::bytea[]) AS item
         ON CONFLICT DO NOTHING`,
        [
          batch.batchId,
          columns.map((_, offset) => from + offset + 1),
          columns.map((column) => column.externalId),
          columns.map((column) => column.amountCents),
          columns.map((column) => column.method),
          columns.map((column) => column.keyType),
          sealed,
          this.sealer.keyId,
        ],
      );
      return 'inserted';
    });
  }

  private async completeInsert(batch: NewBatch): Promise<CreateBatchOutcome> {
    const completed = await this.pool.query(
      "UPDATE batches SET insert_state = 'COMPLETE', insert_progress_at = NULL WHERE batch_id = $1 AND request_hash = $2 AND insert_state = 'INSERTING'",
      [batch.batchId, batch.requestHash],
    );
    if (completed.rowCount === 1) return 'created';
    const stored = await this.pool.query<BatchRow>('SELECT * FROM batches WHERE batch_id = $1', [batch.batchId]);
    const row = stored.rows[0];
    if (row?.insert_state === 'COMPLETE' && row.request_hash === batch.requestHash) return 'exists';
    throw new BatchInsertInterruptedError(batch.batchId);
  }

  /** DISCARDING stays DISCARDING (a discard that stopped midway is finished by the next one). */
  private async markDiscardingIfAbandoned(client: Pool | PoolClient, batchId: string): Promise<boolean> {
    const marked = await client.query(
      `UPDATE batches SET insert_state = 'DISCARDING' WHERE batch_id = $1
       AND (insert_state = 'DISCARDING' OR (insert_state = 'INSERTING' AND insert_progress_at < now() - $2 * interval '1 millisecond'))`,
      [batchId, this.abandonedInsertAfterMs],
    );
    return marked.rowCount === 1;
  }

  /**
   * Deletes a batch marked DISCARDING in short transactions, each under the batch's row lock and only
   * while it is still DISCARDING: two processes discarding it at once never delete a new batch of that id.
   */
  private async discard(batchId: string): Promise<void> {
    const stored = await this.pool.query<{ total: number }>('SELECT total FROM batches WHERE batch_id = $1', [batchId]);
    const total = stored.rows[0]?.total ?? 0;
    for (let after = 0; after < total; after += INSERT_CHUNK) {
      const goesOn = await inTransaction(this.pool, async (client) => {
        if ((await lockBatch(client, batchId))?.insert_state !== 'DISCARDING') return false;
        await client.query(
          'DELETE FROM payout_ids WHERE batch_id = $1 AND external_id IN (SELECT external_id FROM batch_items WHERE batch_id = $1 AND seq > $2 AND seq <= $3)',
          [batchId, after, after + INSERT_CHUNK],
        );
        await client.query('DELETE FROM batch_items WHERE batch_id = $1 AND seq > $2 AND seq <= $3', [batchId, after, after + INSERT_CHUNK]);
        return true;
      });
      if (!goesOn) return;
    }
    await this.pool.query("DELETE FROM batches WHERE batch_id = $1 AND insert_state = 'DISCARDING'", [batchId]);
  }

  async discardAbandonedBatches(): Promise<{ discarded: number }> {
    const candidates = await this.pool.query<{ batch_id: string }>("SELECT batch_id FROM batches WHERE insert_state <> 'COMPLETE'");
    let discarded = 0;
    for (const { batch_id: batchId } of candidates.rows) {
      // Marked by a conditional UPDATE, so a batch whose insert moved meanwhile is left alone.
      if (!(await this.markDiscardingIfAbandoned(this.pool, batchId))) continue;
      await this.discard(batchId);
      discarded += 1;
    }
    return { discarded };
  }

  async existingExternalIds(ids: readonly string[], options: { exceptBatchId?: string } = {}): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows =
      options.exceptBatchId === undefined
        ? await this.pool.query<{ external_id: string }>('SELECT external_id FROM payout_ids WHERE external_id = ANY($1::text[])', [ids])
        : await this.pool.query<{ external_id: string }>(
            'SELECT external_id FROM payout_ids WHERE external_id = ANY($1::text[]) AND (batch_id IS NULL OR batch_id <> $2)',
            [ids, options.exceptBatchId],
          );
    return new Set(rows.rows.map((row) => row.external_id));
  }

  async payoutOwner(externalId: string): Promise<{ batchId: string | null } | undefined> {
    const found = await this.pool.query<{ batch_id: string | null }>('SELECT batch_id FROM payout_ids WHERE external_id = $1', [externalId]);
    const row = found.rows[0];
    return row ? { batchId: row.batch_id } : undefined;
  }

  async registerPayout(externalId: string): Promise<boolean> {
    const inserted = await this.pool.query('INSERT INTO payout_ids (external_id, batch_id) VALUES ($1, NULL) ON CONFLICT DO NOTHING', [externalId]);
    return inserted.rowCount === 1;
  }

  async readPage(batchId: string, afterSeq: number, limit: number): Promise<BatchItem[]> {
    const page = await this.pool.query<PageRow>(
      'SELECT seq, external_id, amount_cents, method, key_type, sealed, key_id FROM batch_items WHERE batch_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
      [batchId, afterSeq, checkLimit(limit)],
    );
    return page.rows.map((row) => {
      const columns = { externalId: row.external_id, amountCents: Number(row.amount_cents), method: row.method, keyType: row.key_type };
      return { seq: row.seq, ...itemFromRow(columns, this.sealer.open(row.external_id, row.sealed, row.key_id)) };
    });
  }

  async markStarted(batchId: string, seqs: readonly number[], at: Date = new Date()): Promise<void> {
    await retryingConflicts(() =>
      this.pool.query(
        `WITH started AS (UPDATE batch_items SET state = 'STARTED' WHERE batch_id = $1 AND seq = ANY($2::int[]) AND state = 'PENDING')
         UPDATE batches SET started_at = COALESCE(started_at, $3) WHERE batch_id = $1`,
        [batchId, seqs, at],
      ),
    );
  }

  async recordOutcomes(batchId: string, outcomes: readonly ItemOutcome[]): Promise<{ changed: number }> {
    const applied = strongestOutcomes(outcomes);
    if (applied.length === 0) return { changed: 0 };
    // The rank check is in the WHERE: when another worker's write to the row commits first, PostgreSQL
    // checks it again against that write, so an older outcome arriving late changes nothing.
    const updated = await retryingConflicts(() =>
      this.pool.query(
        `UPDATE batch_items AS i SET state = o.state, fee_cents = COALESCE(o.fee_cents, i.fee_cents), failure_reason = COALESCE(o.failure_reason, i.failure_reason)
         FROM unnest($2::text[], $3::text[], $4::int[], $5::bigint[], $6::text[]) AS o (external_id, state, rank, fee_cents, failure_reason)
         WHERE i.batch_id = $1 AND i.external_id = o.external_id AND ${RANK_OF_STATE} < o.rank`,
        [
          batchId,
          applied.map((outcome) => outcome.externalId),
          applied.map((outcome) => outcome.state),
          applied.map((outcome) => ITEM_STATE_RANK[outcome.state]),
          applied.map((outcome) => outcome.feeCents ?? null),
          applied.map((outcome) => outcome.failureReason ?? null),
        ],
      ),
    );
    return { changed: updated.rowCount ?? 0 };
  }

  async cancelPending(batchId: string): Promise<{ cancelled: number }> {
    const cancelled = await retryingConflicts(() =>
      this.pool.query(
        `WITH control AS (UPDATE batches SET control = 'CANCELLED' WHERE batch_id = $1)
         UPDATE batch_items SET state = 'CANCELLED' WHERE batch_id = $1 AND state = 'PENDING'`,
        [batchId],
      ),
    );
    return { cancelled: cancelled.rowCount ?? 0 };
  }

  async setControl(batchId: string, control: BatchControl): Promise<void> {
    await this.pool.query('UPDATE batches SET control = $2 WHERE batch_id = $1', [batchId, control]);
  }

  async markFinished(batchId: string, at: Date = new Date()): Promise<void> {
    await this.pool.query('UPDATE batches SET finished_at = COALESCE(finished_at, $2) WHERE batch_id = $1', [batchId, at]);
  }

  async summary(batchId: string): Promise<BatchSummary | undefined> {
    // One statement: the batch row and the counts come from the same snapshot.
    const found = await this.pool.query<BatchRow & { state: ItemState | null; count: number | null; amount_cents: string | null }>(
      `SELECT b.*, t.state, t.count, t.amount_cents FROM batches b
       LEFT JOIN LATERAL (SELECT state, COUNT(*)::int AS count, SUM(amount_cents)::bigint AS amount_cents FROM batch_items WHERE batch_id = b.batch_id GROUP BY state) t ON true
       WHERE b.batch_id = $1`,
      [batchId],
    );
    const batch = found.rows[0];
    // A batch still being stored is not there yet: not shown, not controllable.
    if (batch?.insert_state !== 'COMPLETE') return undefined;
    const totals = found.rows.flatMap((row) => (row.state === null ? [] : [{ state: row.state, count: row.count ?? 0, amountCents: Number(row.amount_cents ?? 0) }]));
    return summaryOf(
      {
        batchId,
        total: batch.total,
        totalAmountCents: Number(batch.total_amount_cents),
        control: batch.control,
        createdAt: batch.created_at,
        ...(batch.started_at === null ? {} : { startedAt: batch.started_at }),
        ...(batch.finished_at === null ? {} : { finishedAt: batch.finished_at }),
      },
      totals,
    );
  }

  async listItems(batchId: string, options: ListItemsOptions): Promise<ItemsPage> {
    const limit = checkLimit(options.limit);
    const afterSeq = afterSeqOf(options.cursor);
    // One row more than asked tells whether another page follows without a COUNT.
    const rows =
      options.status === undefined
        ? await this.pool.query<ViewRow>(`SELECT ${VIEW_COLUMNS} FROM batch_items WHERE batch_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [batchId, afterSeq, limit + 1])
        : await this.pool.query<ViewRow>(`SELECT ${VIEW_COLUMNS} FROM batch_items WHERE batch_id = $1 AND state = $2 AND seq > $3 ORDER BY seq LIMIT $4`, [
            batchId,
            options.status,
            afterSeq,
            limit + 1,
          ]);
    return itemsPage(rows.rows.map(toView), limit);
  }

  private closing: Promise<void> | undefined;

  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }
}

async function lockBatch(client: PoolClient, batchId: string): Promise<{ request_hash: string; insert_state: InsertState } | undefined> {
  const found = await client.query<{ request_hash: string; insert_state: InsertState }>(
    'SELECT request_hash, insert_state FROM batches WHERE batch_id = $1 FOR UPDATE',
    [batchId],
  );
  return found.rows[0];
}

/**
 * One outcome per item, as applying them one after the other would leave it: the first of the highest
 * rank (a later one of the same rank would not move the item). One UPDATE cannot apply two to a row.
 */
function strongestOutcomes(outcomes: readonly ItemOutcome[]): ItemOutcome[] {
  const byId = new Map<string, ItemOutcome>();
  for (const outcome of outcomes) {
    const kept = byId.get(outcome.externalId);
    if (!kept || ITEM_STATE_RANK[outcome.state] > ITEM_STATE_RANK[kept.state]) byId.set(outcome.externalId, outcome);
  }
  return [...byId.values()];
}

function toView(row: ViewRow): BatchItemView {
  return {
    seq: row.seq,
    externalId: row.external_id,
    amountCents: Number(row.amount_cents),
    method: row.method,
    state: row.state,
    ...(row.fee_cents === null ? {} : { feeCents: Number(row.fee_cents) }),
    ...(row.failure_reason === null ? {} : { failureReason: row.failure_reason }),
  };
}
