/**
 * Opens the sandbox's SQLite file and brings its schema up to date. Migrations are identified by
 * name, not by a global number, so each product module can ship its own tables without two engineers
 * competing for the next version number; they apply in the order given, once each.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type SandboxDatabase = Database.Database;

export interface Migration {
  /** Unique and stable forever, e.g. `core/001-initial` or `cash-in/001-charges`. */
  id: string;
  sql: string;
}

export function openDatabase(dbPath: string): SandboxDatabase {
  if (dbPath !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
  const db = new Database(dbPath);
  // WAL lets the admin API read while a settlement writes; NORMAL is durable enough with WAL.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

export function applyMigrations(db: SandboxDatabase, migrations: readonly Migration[]): string[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const applied = new Set(db.prepare<[], { id: string }>('SELECT id FROM schema_migrations').all().map((row) => row.id));
  const record = db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)');
  const newlyApplied: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.id)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.id, Date.now());
    })();
    newlyApplied.push(migration.id);
  }
  return newlyApplied;
}

/** A key/value row for small durable settings (the JWT signing key). */
export function readOrCreateSetting(db: SandboxDatabase, key: string, create: () => string): string {
  const existing = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key);
  if (existing) return existing.value;
  const value = create();
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(key, value);
  return value;
}
