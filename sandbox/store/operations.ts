/**
 * Operations of every product in one table: what the transaction check and the admin API look up.
 * Each product keeps its own status vocabulary in `status` and its own extras in `details`.
 */
import { randomBytes } from 'node:crypto';
import type { SandboxDatabase } from './database';
import { whereGiven } from './where-given';

export interface Operation {
  id: string;
  userId: string;
  product: string;
  externalId: string | null;
  status: string;
  amountCents: number;
  feeCents: number;
  fingerprint: string | null;
  callbackUrl: string | null;
  failureReason: string | null;
  details: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

export type NewOperation = Omit<Operation, 'createdAt' | 'updatedAt' | 'failureReason'> & {
  failureReason?: string | null;
};

interface OperationRow {
  id: string;
  user_id: string;
  product: string;
  external_id: string | null;
  status: string;
  amount_cents: number;
  fee_cents: number;
  fingerprint: string | null;
  callback_url: string | null;
  failure_reason: string | null;
  details: string;
  created_at: number;
  updated_at: number;
}

function toOperation(row: OperationRow): Operation {
  return {
    id: row.id,
    userId: row.user_id,
    product: row.product,
    externalId: row.external_id,
    status: row.status,
    amountCents: row.amount_cents,
    feeCents: row.fee_cents,
    fingerprint: row.fingerprint,
    callbackUrl: row.callback_url,
    failureReason: row.failure_reason,
    details: JSON.parse(row.details) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A provider transaction id: a product prefix and 24 random hex characters (`wd_3f2a...`). */
export function newOperationId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export interface OperationStore {
  insert(operation: NewOperation): Operation;
  byId(id: string): Operation | undefined;
  /** The caller's first operation with this client id (there are several only with SANDBOX_DEDUPLICATE=false). */
  byExternalId(userId: string, externalId: string): Operation | undefined;
  /** The caller's operation by provider id first, then by the client's own id (check endpoint rule 2). */
  findForUser(userId: string, reference: string): Operation | undefined;
  /** Moves the status; returns false when the operation was not in `from` (someone else got there first). */
  transition(
    id: string,
    from: string,
    to: string,
    fields?: { failureReason?: string | null; details?: Record<string, unknown> },
  ): boolean;
  list(filter: { externalId?: string; product?: string; status?: string; limit?: number }): Operation[];
}

export function createOperationStore(db: SandboxDatabase, now: () => number): OperationStore {
  const insert = db.prepare(`INSERT INTO operations
    (id, user_id, product, external_id, status, amount_cents, fee_cents, fingerprint, callback_url, failure_reason, details, created_at, updated_at)
    VALUES (@id, @user_id, @product, @external_id, @status, @amount_cents, @fee_cents, @fingerprint, @callback_url, @failure_reason, @details, @created_at, @updated_at)`);
  const byId = db.prepare<[string], OperationRow>('SELECT * FROM operations WHERE id = ?');
  const byExternal = db.prepare<[string, string], OperationRow>(
    'SELECT * FROM operations WHERE user_id = ? AND external_id = ? ORDER BY created_at, rowid LIMIT 1',
  );
  const byIdForUser = db.prepare<[string, string], OperationRow>(
    'SELECT * FROM operations WHERE user_id = ? AND id = ?',
  );
  const transition = db.prepare(`UPDATE operations SET status = @to, updated_at = @now,
      failure_reason = COALESCE(@failure_reason, failure_reason), details = COALESCE(@details, details)
    WHERE id = @id AND status = @from`);

  return {
    insert(operation) {
      const at = now();
      insert.run({
        id: operation.id,
        user_id: operation.userId,
        product: operation.product,
        external_id: operation.externalId,
        status: operation.status,
        amount_cents: operation.amountCents,
        fee_cents: operation.feeCents,
        fingerprint: operation.fingerprint,
        callback_url: operation.callbackUrl,
        failure_reason: operation.failureReason ?? null,
        details: JSON.stringify(operation.details),
        created_at: at,
        updated_at: at,
      });
      return { ...operation, failureReason: operation.failureReason ?? null, createdAt: at, updatedAt: at };
    },
    byId(id) {
      const row = byId.get(id);
      return row ? toOperation(row) : undefined;
    },
    byExternalId(userId, externalId) {
      const row = byExternal.get(userId, externalId);
      return row ? toOperation(row) : undefined;
    },
    findForUser(userId, reference) {
      const row = byIdForUser.get(userId, reference) ?? byExternal.get(userId, reference);
      return row ? toOperation(row) : undefined;
    },
    transition(id, from, to, fields = {}) {
      const result = transition.run({
        id,
        from,
        to,
        now: now(),
        failure_reason: fields.failureReason ?? null,
        details: fields.details ? JSON.stringify(fields.details) : null,
      });
      return result.changes === 1;
    },
    list(filter) {
      const { where, params } = whereGiven([
        ['external_id = ?', filter.externalId],
        ['product = ?', filter.product],
        ['status = ?', filter.status],
      ]);
      params.push(filter.limit ?? 500);
      const sql = `SELECT * FROM operations ${where} ORDER BY created_at DESC, rowid DESC LIMIT ?`;
      return db
        .prepare<(string | number)[], OperationRow>(sql)
        .all(...params)
        .map(toOperation);
    },
  };
}
