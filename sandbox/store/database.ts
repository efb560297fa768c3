/** The sandbox's SQLite file: WAL, foreign keys, and the schema brought up to date by named migrations (src/db/sqlite.ts). */
import type Database from 'better-sqlite3';
import { openSqlite } from '../../src/db/sqlite';

export { applyMigrations, type Migration } from '../../src/db/sqlite';

export type SandboxDatabase = Database.Database;

export function openDatabase(dbPath: string): SandboxDatabase {
  return openSqlite(dbPath, { busyTimeoutMs: 5_000, foreignKeys: true });
}

/** A key/value row for small durable settings (the JWT signing key). */
export function readOrCreateSetting(db: SandboxDatabase, key: string, create: () => string): string {
  const existing = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key);
  if (existing) return existing.value;
  const value = create();
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(key, value);
  return value;
}
