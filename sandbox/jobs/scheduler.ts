/**
 * Durable timers: a job is a row with a due time, so a settlement scheduled before a restart still
 * runs after it. Each job runs in one SQLite transaction together with its bookkeeping, so a crash
 * leaves it either fully done or still pending, never half-applied.
 */
import type { Logger } from '../../src/logging/logger';
import type { SandboxDatabase } from '../store/database';

export type JobHandler = (job: Job) => void;

export interface Job {
  id: number;
  kind: string;
  operationId: string | null;
  payload: Record<string, unknown>;
  dueAt: number;
}

interface JobRow {
  id: number;
  kind: string;
  operation_id: string | null;
  payload: string;
  due_at: number;
}

export interface Scheduler {
  schedule(kind: string, operationId: string | null, dueAt: number, payload?: Record<string, unknown>): number;
  /** Cancels the pending jobs of an operation (an admin forced its outcome). */
  cancelFor(operationId: string): number;
  pendingFor(operationId: string): Job[];
  /** Runs every job due now, each in its own transaction; returns how many ran. */
  runDue(limit?: number): number;
}

export function createScheduler(
  db: SandboxDatabase,
  handlers: ReadonlyMap<string, JobHandler>,
  now: () => number,
  logger: Logger,
): Scheduler {
  const insert = db.prepare(
    "INSERT INTO jobs (kind, operation_id, payload, due_at, status, created_at) VALUES (?, ?, ?, ?, 'pending', ?)",
  );
  const due = db.prepare<[number, number], JobRow>(
    "SELECT id, kind, operation_id, payload, due_at FROM jobs WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, id LIMIT ?",
  );
  const finish = db.prepare(
    "UPDATE jobs SET status = ?, last_error = ?, finished_at = ? WHERE id = ? AND status = 'pending'",
  );
  const cancel = db.prepare(
    "UPDATE jobs SET status = 'cancelled', finished_at = ? WHERE operation_id = ? AND status = 'pending'",
  );
  const pending = db.prepare<[string], JobRow>(
    "SELECT id, kind, operation_id, payload, due_at FROM jobs WHERE operation_id = ? AND status = 'pending' ORDER BY due_at",
  );

  const toJob = (row: JobRow): Job => ({
    id: row.id,
    kind: row.kind,
    operationId: row.operation_id,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    dueAt: row.due_at,
  });

  return {
    schedule: (kind, operationId, dueAt, payload = {}) => {
      if (!handlers.has(kind)) throw new Error(`no job handler registered for ${kind}`);
      return Number(insert.run(kind, operationId, JSON.stringify(payload), dueAt, now()).lastInsertRowid);
    },
    cancelFor: (operationId) => cancel.run(now(), operationId).changes,
    pendingFor: (operationId) => pending.all(operationId).map(toJob),
    runDue(limit = 100) {
      const rows = due.all(now(), limit);
      for (const row of rows) {
        const job = toJob(row);
        const handler = handlers.get(job.kind);
        try {
          db.transaction(() => {
            if (!handler) throw new Error(`no job handler registered for ${job.kind}`);
            handler(job);
            finish.run('done', null, now(), job.id);
          })();
        } catch (error) {
          // A job that throws would throw again: park it as failed (visible in the DB) instead of spinning.
          finish.run('failed', error instanceof Error ? error.message : String(error), now(), job.id);
          logger.error('sandbox.job_failed', {
            jobId: job.id,
            kind: job.kind,
            operationId: job.operationId,
            error: error instanceof Error ? error : String(error),
          });
        }
      }
      return rows.length;
    },
  };
}
