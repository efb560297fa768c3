/**
 * The read model over a SQL runner (src/db/sql.ts), in the batch store's database: SQLite
 * (`${DATA_DIR}/batches.sqlite`, on a connection of its own) or PostgreSQL (DATABASE_URL). Each write is
 * one upsert whose WHERE keeps a later transition's row: writers racing (a retry, a re-run) cannot move a
 * payout backwards. The list pages by keyset on (created_at, external_id), so rows inserted meanwhile
 * cause neither a duplicate nor a gap.
 */
import { z } from 'zod';
import { openPgDatabase, openSqliteDatabase } from '../db/database';
import type { SqlDialect, SqlRunner } from '../db/sql';
import { readModelSchema } from './migrations';
import { PAYOUT_STATES } from '../payouts/payout-state';
import { PAYOUT_METHODS } from '../payouts/rails/methods';
import type { Announcement } from '../merchant-events/announce';
import type { OperationKind, OperationRecord } from './operation-records';
import { storedViewSchema, type PayoutRecord } from './payout-records';
import type {
  OperationListFilter,
  OperationPage,
  PayoutListFilter,
  PayoutPage,
  PayoutTotals,
  ReadModel,
  StoredEvent,
  StoredOperation,
  StoredPayout,
} from './read-model';
import { SqlFilter, sqlInteger } from './sql-filter';
import { findOperation, operationPage, upsertOperation } from './sql-operation-rows';
import {
  eventPage,
  findDelivery,
  recordDelivery,
  type EventDeliveryRecord,
  type EventListFilter,
  type EventPage,
  type StoredEventDelivery,
} from './event-deliveries';

const UPSERT_PAYOUT = `INSERT INTO payouts (external_id, seq, status, method, batch_id, amount_cents, fee_cents, key_type, destination, view, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
  ON CONFLICT (external_id) DO UPDATE SET seq = excluded.seq, status = excluded.status, batch_id = COALESCE(excluded.batch_id, payouts.batch_id),
    fee_cents = excluded.fee_cents, key_type = COALESCE(excluded.key_type, payouts.key_type), destination = COALESCE(excluded.destination, payouts.destination),
    view = excluded.view, updated_at = excluded.updated_at
  WHERE excluded.seq >= payouts.seq`;

const INSERT_EVENT = `INSERT INTO operation_events (event_id, source_id, seq, type, occurred_at, data) VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (event_id) DO NOTHING`;

const PAYOUT_SELECT = 'SELECT external_id, key_type, destination, view, created_at, updated_at FROM payouts';

const payoutRowSchema = z.object({
  external_id: z.string(),
  key_type: z.string().nullable(),
  destination: z.string().nullable(),
  view: z.string(),
  created_at: z.unknown(),
  updated_at: z.unknown(),
});

const totalsRowSchema = z.object({
  status: z.enum(PAYOUT_STATES),
  method: z.enum(PAYOUT_METHODS),
  count: sqlInteger,
  amount_cents: sqlInteger,
  fee_cents: sqlInteger,
});

const eventRowSchema = z.object({ event_id: z.string(), type: z.string(), occurred_at: z.unknown(), data: z.string() });

export class SqlReadModel implements ReadModel {
  constructor(
    private readonly sql: SqlRunner,
    private readonly dialect: SqlDialect,
  ) {}

  async recordPayout(record: PayoutRecord, at = new Date()): Promise<void> {
    await this.sql.query(UPSERT_PAYOUT, this.payoutParams(record, at));
  }

  async recordPayouts(records: readonly PayoutRecord[], at = new Date()): Promise<void> {
    if (records.length === 0) return;
    await this.sql.transaction(async (tx) => {
      for (const record of records) await tx.query(UPSERT_PAYOUT, this.payoutParams(record, at));
    });
  }

  async recordEvent(eventId: string, announcement: Announcement): Promise<void> {
    const occurredAt = this.dialect.timeParam(new Date(announcement.occurredAt));
    await this.sql.query(INSERT_EVENT, [
      eventId,
      announcement.sourceId,
      announcement.seq,
      announcement.type,
      occurredAt,
      JSON.stringify(announcement.data),
    ]);
  }

  findOperation(kind: OperationKind, id: string): Promise<(StoredOperation & { detail?: unknown }) | undefined> {
    return findOperation(this.sql, this.dialect, kind, id);
  }

  recordDelivery(record: EventDeliveryRecord): Promise<void> {
    return recordDelivery(this.sql, this.dialect, record);
  }

  listEvents(filter: EventListFilter): Promise<EventPage> {
    return eventPage(this.sql, this.dialect, filter);
  }

  findEvent(eventId: string): Promise<StoredEventDelivery | undefined> {
    return findDelivery(this.sql, this.dialect, eventId);
  }

  async findPayout(externalId: string): Promise<StoredPayout | undefined> {
    const row = (await this.sql.query(`${PAYOUT_SELECT} WHERE external_id = $1`, [externalId])).rows[0];
    return row === undefined ? undefined : this.storedPayout(row);
  }

  async listPayouts(filter: PayoutListFilter): Promise<PayoutPage> {
    const where = new SqlFilter();
    if (filter.status) where.where((p) => `status = ${p}`, filter.status);
    if (filter.method) where.where((p) => `method = ${p}`, filter.method);
    if (filter.batchId) where.where((p) => `batch_id = ${p}`, filter.batchId);
    if (filter.createdFrom) where.where((p) => `created_at >= ${p}`, this.dialect.timeParam(filter.createdFrom));
    if (filter.createdTo) where.where((p) => `created_at < ${p}`, this.dialect.timeParam(filter.createdTo));
    if (filter.after)
      where.where(
        (p) => `(created_at, external_id) < (${p})`,
        this.dialect.timeParam(filter.after.createdAt),
        filter.after.externalId,
      );
    const limit = where.param(filter.limit + 1);
    const text = `${PAYOUT_SELECT}${where.text()} ORDER BY created_at DESC, external_id DESC LIMIT ${limit}`;
    const rows = (await this.sql.query(text, where.params)).rows.map((row) => this.storedPayout(row));
    const payouts = rows.slice(0, filter.limit);
    const last = payouts.at(-1);
    return {
      payouts,
      ...(rows.length > filter.limit && last
        ? { next: { createdAt: last.createdAt, externalId: last.view.externalId } }
        : {}),
    };
  }

  async recordOperation(record: OperationRecord, at = new Date()): Promise<void> {
    await upsertOperation(this.sql, this.dialect, record, at);
  }

  listOperations(filter: OperationListFilter): Promise<OperationPage> {
    return operationPage(this.sql, this.dialect, filter);
  }

  async payoutTotals(from: Date, to: Date): Promise<PayoutTotals[]> {
    const text = `SELECT status, method, COUNT(*) AS count, SUM(amount_cents) AS amount_cents, COALESCE(SUM(fee_cents), 0) AS fee_cents
      FROM payouts WHERE created_at >= $1 AND created_at < $2 GROUP BY status, method ORDER BY status, method`;
    const rows = (await this.sql.query(text, [this.dialect.timeParam(from), this.dialect.timeParam(to)])).rows;
    return rows.map((row) => {
      const parsed = totalsRowSchema.parse(row);
      return {
        status: parsed.status,
        method: parsed.method,
        count: parsed.count,
        amountCents: parsed.amount_cents,
        feeCents: parsed.fee_cents,
      };
    });
  }

  async eventsOf(sourceId: string): Promise<StoredEvent[]> {
    const rows = (
      await this.sql.query(
        'SELECT event_id, type, occurred_at, data FROM operation_events WHERE source_id = $1 ORDER BY seq, event_id',
        [sourceId],
      )
    ).rows;
    return rows.map((row) => {
      const parsed = eventRowSchema.parse(row);
      return {
        id: parsed.event_id,
        type: parsed.type,
        occurredAt: this.dialect.timeOf(parsed.occurred_at).toISOString(),
        data: z.record(z.string(), z.unknown()).parse(JSON.parse(parsed.data)),
      };
    });
  }

  close(): Promise<void> {
    return this.sql.close();
  }

  private payoutParams(record: PayoutRecord, at: Date): unknown[] {
    return [
      record.externalId,
      record.seq,
      record.status,
      record.method,
      record.batchId ?? null,
      record.amountCents,
      record.feeCents ?? null,
      record.keyType ?? null,
      record.destination ?? null,
      JSON.stringify(record.view),
      this.dialect.timeParam(at),
    ];
  }

  private storedPayout(row: unknown): StoredPayout {
    const parsed = payoutRowSchema.parse(row);
    return {
      view: storedViewSchema.parse(JSON.parse(parsed.view)),
      ...(parsed.key_type === null ? {} : { keyType: parsed.key_type }),
      ...(parsed.destination === null ? {} : { destination: parsed.destination }),
      createdAt: this.dialect.timeOf(parsed.created_at),
      updatedAt: this.dialect.timeOf(parsed.updated_at),
    };
  }
}

/** On the batch store's SQLite file, on a connection of its own. */
export function sqliteReadModel(file: string, busyTimeoutMs = 10_000): ReadModel {
  const { runner, dialect } = openSqliteDatabase(file, readModelSchema, { busyTimeoutMs });
  return new SqlReadModel(runner, dialect);
}

/** On the batch store's PostgreSQL database. */
export async function pgReadModel(connectionString: string, poolSize = 4): Promise<ReadModel> {
  const { runner, dialect } = await openPgDatabase(connectionString, readModelSchema, poolSize);
  return new SqlReadModel(runner, dialect);
}
