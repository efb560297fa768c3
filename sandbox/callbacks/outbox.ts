/**
 * The callback outbox: a callback is a row written in the same transaction as the state change it
 * announces, so it cannot be lost by a crash between the two. Delivery (./dispatcher.ts) reads rows.
 */
import { randomBytes } from 'node:crypto';
import type { SandboxDatabase } from '../store/database';
import { whereGiven } from '../store/where-given';
import type { CallbackFaultDecision } from '../faults/fault-state';

export type CallbackStatus = 'held' | 'pending' | 'delivered' | 'failed' | 'dropped';

export interface CallbackRecord {
  id: string;
  operationId: string | null;
  type: string;
  url: string;
  body: string;
  status: CallbackStatus;
  attempts: number;
  maxAttempts: number;
  extraCopies: number;
  nextAttemptAt: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: number;
  seq: number;
  deliveredAt: number | null;
}

export interface CallbackAttempt {
  attempt: number;
  at: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

interface CallbackRow {
  id: string;
  operation_id: string | null;
  type: string;
  url: string;
  body: string;
  status: CallbackStatus;
  attempts: number;
  max_attempts: number;
  extra_copies: number;
  next_attempt_at: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  seq: number;
  delivered_at: number | null;
}

const toRecord = (row: CallbackRow): CallbackRecord => ({
  id: row.id,
  operationId: row.operation_id,
  type: row.type,
  url: row.url,
  body: row.body,
  status: row.status,
  attempts: row.attempts,
  maxAttempts: row.max_attempts,
  extraCopies: row.extra_copies,
  nextAttemptAt: row.next_attempt_at,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  createdAt: row.created_at,
  seq: row.seq,
  deliveredAt: row.delivered_at,
});

export interface NewCallback {
  operationId: string | null;
  /** The callback family (`Withdrawal`, `PixCopyPaste`, ...), as in the payload's `type`. */
  type: string;
  url: string;
  payload: unknown;
}

export interface Outbox {
  /** Writes the callback row; call inside the transaction of the state change it announces. */
  enqueue(callback: NewCallback, faults: CallbackFaultDecision): CallbackRecord;
  byId(id: string): CallbackRecord | undefined;
  list(filter: { operationId?: string; status?: string }): CallbackRecord[];
  attempts(id: string): CallbackAttempt[];
  due(now: number, limit: number): CallbackRecord[];
  held(): CallbackRecord[];
  recordAttempt(
    id: string,
    attempt: Omit<CallbackAttempt, 'attempt'>,
    next: { status: CallbackStatus; nextAttemptAt?: number; extraCopies?: number },
  ): void;
  /** Sends a callback again from scratch, whatever its state; the event id stays the same. */
  redeliver(id: string, now: number, maxAttempts: number): CallbackRecord | undefined;
}

export function createOutbox(db: SandboxDatabase, now: () => number, defaultMaxAttempts: number): Outbox {
  const insert = db.prepare(`INSERT INTO callbacks
    (id, operation_id, type, url, body, status, attempts, max_attempts, extra_copies, next_attempt_at, created_at, seq)
    VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM callbacks))`);
  const byId = db.prepare<[string], CallbackRow>('SELECT * FROM callbacks WHERE id = ?');
  const due = db.prepare<[number, number], CallbackRow>(
    "SELECT * FROM callbacks WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?",
  );
  const held = db.prepare<[], CallbackRow>("SELECT * FROM callbacks WHERE status = 'held' ORDER BY seq DESC");
  const insertAttempt = db.prepare(
    'INSERT INTO callback_attempts (callback_id, attempt, at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const update =
    db.prepare(`UPDATE callbacks SET attempts = attempts + 1, status = @status, last_status_code = @code, last_error = @error,
      next_attempt_at = COALESCE(@next, next_attempt_at), extra_copies = COALESCE(@copies, extra_copies),
      delivered_at = CASE WHEN @status = 'delivered' THEN COALESCE(delivered_at, @at) ELSE delivered_at END
    WHERE id = @id`);
  const attemptsOf = db.prepare<
    [string],
    { attempt: number; at: number; status_code: number | null; error: string | null; duration_ms: number }
  >(
    'SELECT attempt, at, status_code, error, duration_ms FROM callback_attempts WHERE callback_id = ? ORDER BY attempt',
  );

  return {
    enqueue(callback, faults) {
      const id = `evt_${randomBytes(12).toString('hex')}`;
      const body = JSON.stringify(callback.payload);
      const status: CallbackStatus = faults.drop ? 'dropped' : faults.hold ? 'held' : 'pending';
      const at = now();
      insert.run(
        id,
        callback.operationId,
        callback.type,
        callback.url,
        body,
        status,
        defaultMaxAttempts,
        faults.extraCopies,
        at + faults.delayMs,
        at,
      );
      const row = byId.get(id);
      if (!row) throw new Error(`callback ${id} vanished after insert`);
      return toRecord(row);
    },
    byId: (id) => {
      const row = byId.get(id);
      return row ? toRecord(row) : undefined;
    },
    list(filter) {
      const { where, params } = whereGiven([
        ['operation_id = ?', filter.operationId],
        ['status = ?', filter.status],
      ]);
      return db
        .prepare<(string | number)[], CallbackRow>(`SELECT * FROM callbacks ${where} ORDER BY seq DESC LIMIT 500`)
        .all(...params)
        .map(toRecord);
    },
    attempts: (id) =>
      attemptsOf.all(id).map((row) => ({
        attempt: row.attempt,
        at: row.at,
        statusCode: row.status_code,
        error: row.error,
        durationMs: row.duration_ms,
      })),
    due: (at, limit) => due.all(at, limit).map(toRecord),
    held: () => held.all().map(toRecord),
    recordAttempt(id, attempt, next) {
      db.transaction(() => {
        const row = byId.get(id);
        if (!row) return;
        insertAttempt.run(id, row.attempts + 1, attempt.at, attempt.statusCode, attempt.error, attempt.durationMs);
        update.run({
          id,
          status: next.status,
          code: attempt.statusCode,
          error: attempt.error,
          next: next.nextAttemptAt ?? null,
          copies: next.extraCopies ?? null,
          at: attempt.at,
        });
      })();
    },
    redeliver(id, at, maxAttempts) {
      const row = byId.get(id);
      if (!row) return undefined;
      db.prepare(
        "UPDATE callbacks SET status = 'pending', next_attempt_at = ?, max_attempts = attempts + ? WHERE id = ?",
      ).run(at, maxAttempts, id);
      const updated = byId.get(id);
      return updated ? toRecord(updated) : undefined;
    },
  };
}
