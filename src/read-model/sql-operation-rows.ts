/**
 * The rows of charges, card payments and infractions (the `operations` table) over a SQL runner: one upsert
 * whose WHERE keeps a later move's row, and a keyset page on (created_at, id) within a kind, newest first.
 */
import { z } from 'zod';
import type { SqlDialect, SqlRunner } from '../db/sql';
import { operationDetail } from './operation-details';
import type { OperationKind, OperationRecord } from './operation-records';
import type { OperationListFilter, OperationPage, StoredOperation } from './read-model';
import { SqlFilter, sqlInteger } from './sql-filter';

const UPSERT_OPERATION = `INSERT INTO operations (kind, id, seq, status, amount_cents, deadline, created_at, updated_at, detail)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)
  ON CONFLICT (kind, id) DO UPDATE SET seq = excluded.seq, status = excluded.status, amount_cents = COALESCE(excluded.amount_cents, operations.amount_cents),
    deadline = COALESCE(excluded.deadline, operations.deadline), updated_at = excluded.updated_at, detail = COALESCE(excluded.detail, operations.detail)
  WHERE excluded.seq >= operations.seq`;

const rowSchema = z.object({
  id: z.string(),
  status: z.string(),
  amount_cents: sqlInteger.nullable(),
  deadline: z.unknown(),
  created_at: z.unknown(),
  updated_at: z.unknown(),
});

function detailColumn(record: OperationRecord): string | null {
  const detail = record.view === undefined ? undefined : operationDetail(record.kind, record.view);
  return detail === undefined ? null : JSON.stringify(detail);
}

export async function upsertOperation(
  sql: SqlRunner,
  dialect: SqlDialect,
  record: OperationRecord,
  at: Date,
): Promise<void> {
  const deadline = record.deadline === undefined ? null : dialect.timeParam(new Date(record.deadline));
  await sql.query(UPSERT_OPERATION, [
    record.kind,
    record.id,
    record.seq,
    record.status,
    record.amountCents ?? null,
    deadline,
    dialect.timeParam(at),
    detailColumn(record),
  ]);
}

const OPERATION_SELECT = 'SELECT id, status, amount_cents, deadline, created_at, updated_at FROM operations';

function storedOperation(dialect: SqlDialect, row: unknown): StoredOperation {
  const parsed = rowSchema.parse(row);
  return {
    id: parsed.id,
    status: parsed.status,
    ...(parsed.amount_cents === null ? {} : { amountCents: parsed.amount_cents }),
    ...(parsed.deadline === null || parsed.deadline === undefined ? {} : { deadline: dialect.timeOf(parsed.deadline) }),
    createdAt: dialect.timeOf(parsed.created_at),
    updatedAt: dialect.timeOf(parsed.updated_at),
  };
}

/** One operation's row, with its detail as stored (JSON, read by its kind's schema in operation-details.ts). */
export async function findOperation(
  sql: SqlRunner,
  dialect: SqlDialect,
  kind: OperationKind,
  id: string,
): Promise<(StoredOperation & { detail?: unknown }) | undefined> {
  const row = (
    await sql.query(
      `SELECT id, status, amount_cents, deadline, created_at, updated_at, detail FROM operations WHERE kind = $1 AND id = $2`,
      [kind, id],
    )
  ).rows[0];
  if (row === undefined) return undefined;
  const detail = z.object({ detail: z.string().nullable() }).parse(row).detail;
  return { ...storedOperation(dialect, row), ...(detail === null ? {} : { detail: JSON.parse(detail) as unknown }) };
}

export async function operationPage(
  sql: SqlRunner,
  dialect: SqlDialect,
  filter: OperationListFilter,
): Promise<OperationPage> {
  const where = new SqlFilter();
  where.where((p) => `kind = ${p}`, filter.kind);
  if (filter.status) where.where((p) => `status = ${p}`, filter.status);
  if (filter.createdFrom) where.where((p) => `created_at >= ${p}`, dialect.timeParam(filter.createdFrom));
  if (filter.createdTo) where.where((p) => `created_at < ${p}`, dialect.timeParam(filter.createdTo));
  if (filter.dueBefore) where.where((p) => `deadline < ${p}`, dialect.timeParam(filter.dueBefore));
  if (filter.after)
    where.where((p) => `(created_at, id) < (${p})`, dialect.timeParam(filter.after.createdAt), filter.after.id);
  const limit = where.param(filter.limit + 1);
  const text = `${OPERATION_SELECT}${where.text()} ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
  const rows = (await sql.query(text, where.params)).rows.map((row) => storedOperation(dialect, row));
  const operations = rows.slice(0, filter.limit);
  const last = operations.at(-1);
  return {
    operations,
    ...(rows.length > filter.limit && last ? { next: { createdAt: last.createdAt, id: last.id } } : {}),
  };
}
