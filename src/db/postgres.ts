/**
 * PostgreSQL databases of this repository (the batch store when it is shared by several machines):
 * versioned by the same named migrations as the SQLite files (src/db/sqlite.ts), recorded in
 * schema_migrations. Every process opening the database runs them at start-up; an advisory lock makes
 * the API and workers starting together apply each migration once.
 */
import type { Pool, PoolClient } from 'pg';
import { networkErrorCode } from '../net/network-error-code';
import { isMigrationApplied, type Migration } from './sqlite';

/**
 * The database is away for now, not refusing the request: a socket that cannot connect or was cut,
 * SQLSTATE class 08 (connection exception), 57P01-57P03 (the server shutting down, crashed, starting),
 * or the pg client's own "Connection terminated" (no code). The same request later may well succeed.
 */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03']);

export function isDatabaseUnavailable(error: unknown): boolean {
  const code = networkErrorCode(error);
  if (code !== undefined)
    return UNAVAILABLE_SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
  return error instanceof Error && /^Connection terminated/.test(error.message);
}

/** Any number, fixed forever: the advisory lock the migration runners of this repository take. */
const MIGRATION_LOCK = 7_316_016;

/** Applies the migrations not yet applied, each in its own transaction; returns the ids it applied. */
export async function applyPgMigrations(pool: Pool, migrations: readonly Migration[]): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await inTransaction(pool, async (client) => {
      // Taken before the table exists: CREATE TABLE IF NOT EXISTS races with itself in PostgreSQL.
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)',
      );
      const ids = [migration.id, ...(migration.formerly ?? [])];
      const found = await client.query<{ id: string }>('SELECT id FROM schema_migrations WHERE id = ANY($1)', [ids]);
      const recorded = new Set(found.rows.map((row) => row.id));
      if (isMigrationApplied(migration, (id) => recorded.has(id))) return false;
      await client.query(migration.sql);
      await client.query(
        'INSERT INTO schema_migrations (id, applied_at) SELECT unnest($1::text[]), now() ON CONFLICT DO NOTHING',
        [[migration.id, ...(migration.covers ?? [])]],
      );
      return true;
    });
    if (done) applied.push(migration.id);
  }
  return applied;
}

/** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A connection that cannot even roll back is not given back to the pool.
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}
