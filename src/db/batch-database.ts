/**
 * A connection of its own to the batch store's database, for the stores that live beside it (intents, the
 * read model): SQLite (the batch store's file) or PostgreSQL (DATABASE_URL), its migrations applied by
 * whichever process opens it first.
 */
import { Pool } from 'pg';
import { PG_BATCH_MIGRATIONS } from '../batches/pg-batch-schema';
import { BATCH_MIGRATIONS } from '../batches/sqlite-batch-schema';
import { applyPgMigrations } from './postgres';
import { postgresDialect, PgRunner } from './postgres-dialect';
import type { SqlDialect, SqlRunner } from './sql';
import { applyMigrations, openSqlite } from './sqlite';
import { sqliteDialect, SqliteRunner } from './sqlite-dialect';

export interface BatchDatabase {
  runner: SqlRunner;
  dialect: SqlDialect;
}

export function sqliteBatchDatabase(file: string, busyTimeoutMs = 10_000): BatchDatabase {
  const db = openSqlite(file, { busyTimeoutMs });
  applyMigrations(db, BATCH_MIGRATIONS);
  return { runner: new SqliteRunner(db), dialect: sqliteDialect };
}

export async function pgBatchDatabase(connectionString: string, poolSize = 4): Promise<BatchDatabase> {
  const pool = new Pool({ connectionString, max: poolSize });
  // An idle connection the server dropped must not take the process down; the next query reconnects.
  pool.on('error', () => undefined);
  try {
    await applyPgMigrations(pool, PG_BATCH_MIGRATIONS);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { runner: new PgRunner(pool), dialect: postgresDialect };
}
