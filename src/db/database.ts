/**
 * A connection of a store to its database, its module's migrations applied by whichever process opens it
 * first: a SQLite file, or the PostgreSQL server DATABASE_URL names. Several modules keep their tables in the
 * engine's database (engineDatabasePath): each opens it with its own migrations.
 */
import path from 'node:path';
import { Pool } from 'pg';
import { applyPgMigrations } from './postgres';
import { postgresDialect, PgRunner } from './postgres-dialect';
import type { SchemaWords, SqlDialect, SqlRunner } from './sql';
import { applyMigrations, openSqlite, type Migration } from './sqlite';
import { sqliteDialect, SqliteRunner } from './sqlite-dialect';

/** A module's tables, written once: the dialect supplies the words SQLite and PostgreSQL spell differently. */
export type Schema = (words: SchemaWords) => readonly Migration[];

export interface SqlDatabase {
  runner: SqlRunner;
  dialect: SqlDialect;
}

/** The SQLite file the batches, intents, read model and unmatched callbacks share under DATA_DIR (its name from when it held batches alone). */
export function engineDatabasePath(dataDir: string): string {
  return path.join(dataDir, 'batches.sqlite');
}

export function openSqliteDatabase(
  file: string,
  schema: Schema,
  options: { busyTimeoutMs?: number; foreignKeys?: boolean } = {},
): SqlDatabase {
  const db = openSqlite(file, {
    busyTimeoutMs: options.busyTimeoutMs ?? 10_000,
    foreignKeys: options.foreignKeys ?? false,
  });
  applyMigrations(db, schema(sqliteDialect.schema));
  return { runner: new SqliteRunner(db), dialect: sqliteDialect };
}

export async function openPgDatabase(connectionString: string, schema: Schema, poolSize = 4): Promise<SqlDatabase> {
  const pool = new Pool({ connectionString, max: poolSize });
  // An idle connection the server dropped must not take the process down; the next query reconnects.
  pool.on('error', () => undefined);
  try {
    await applyPgMigrations(pool, schema(postgresDialect.schema));
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { runner: new PgRunner(pool), dialect: postgresDialect };
}
