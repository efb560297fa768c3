/**
 * SQLite files of this repository (the sandbox's state, the batch store): opened in WAL so that readers
 * go on while one writer writes, and brought up to date by named migrations. Migrations are identified
 * by name, not by a global number, so each module can ship its own tables without two engineers
 * competing for the next version number; they apply in the order given, once each.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface Migration {
  /** Unique and stable forever, e.g. `core/001-initial` or `batches/001-initial`. */
  id: string;
  sql: string;
  /** Ids it was recorded under before it moved to its module: a database that recorded one of them has it. */
  formerly?: readonly string[];
  /** Upgrades of older databases whose result this one creates already: recorded with it, never run after it. */
  covers?: readonly string[];
}

/** Whether a database that recorded `isRecorded` ids has `migration`. */
export function isMigrationApplied(migration: Migration, isRecorded: (id: string) => boolean): boolean {
  return [migration.id, ...(migration.formerly ?? [])].some(isRecorded);
}

export interface OpenOptions {
  /** How long a write waits for another connection's lock before failing. */
  busyTimeoutMs: number;
  foreignKeys?: boolean;
}

/** A file path, or ':memory:' for a database that lives as long as the connection. */
export function openSqlite(file: string, options: OpenOptions): Database.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // The busy timeout from the first statement on: switching a new file to WAL already takes a lock.
  const db = new Database(file, { timeout: options.busyTimeoutMs });
  // NORMAL is durable across process crashes with WAL.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  if (options.foreignKeys) db.pragma('foreign_keys = ON');
  return db;
}

/** Applies the migrations not yet applied; returns the ids it applied. */
export function applyMigrations(db: Database.Database, migrations: readonly Migration[]): string[] {
  // Read first, without the write lock: opening a file that is up to date waits for no writer.
  if (migrations.every((migration) => isMigrationApplied(migration, (id) => isRecorded(db, id)))) return [];
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const isApplied = db.prepare<[string], { id: string }>('SELECT id FROM schema_migrations WHERE id = ?');
  const record = db.prepare<[string, number]>(
    'INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const applied: string[] = [];
  for (const migration of migrations) {
    // Checked inside the write lock: two processes may open a new file at the same moment.
    db.transaction(() => {
      if (isMigrationApplied(migration, (id) => isApplied.get(id) !== undefined)) return;
      db.exec(migration.sql);
      for (const id of [migration.id, ...(migration.covers ?? [])]) record.run(id, Date.now());
      applied.push(migration.id);
    }).immediate();
  }
  return applied;
}

function isRecorded(db: Database.Database, id: string): boolean {
  const table = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  return (
    table !== undefined &&
    db.prepare<[string], { id: string }>('SELECT id FROM schema_migrations WHERE id = ?').get(id) !== undefined
  );
}
