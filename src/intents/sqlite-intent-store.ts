/**
 * The intent store in the batch store's SQLite file (`${DATA_DIR}/batches.sqlite`, the payout registry's),
 * on a connection of its own: WAL lets the API and the worker share the file, a claim takes the write
 * lock up front (BEGIN IMMEDIATE) so that two claims of one key are serialised.
 */
import type Database from 'better-sqlite3';
import { settled } from '../batches/batch-store';
import { BATCH_MIGRATIONS } from '../batches/sqlite-batch-schema';
import { applyMigrations, openSqlite } from '../db/sqlite';
import { claimOf, claimSql, intentRowSchema, type Claim, type Intent, type IntentKey, type IntentStore, type IntentUpdate } from './intent-store';

export class SqliteIntentStore implements IntentStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(options: { file: string; busyTimeoutMs?: number }) {
    this.db = openSqlite(options.file, { busyTimeoutMs: options.busyTimeoutMs ?? 10_000 });
    // The table is one of the batch store's migrations: whichever opens the file first applies them.
    applyMigrations(this.db, BATCH_MIGRATIONS);
    this.statements = {
      claim: this.db.prepare<[{ businessId: string; kind: string; runId: string; at: number }]>(claimSql((name) => `@${name}`)),
      find: this.db.prepare<[string, string]>('SELECT * FROM money_intents WHERE business_id = ? AND kind = ?'),
      record: this.db.prepare<[string, string | null, string | null, number, string, string, string]>(
        'UPDATE money_intents SET state = ?, provider_id = COALESCE(?, provider_id), answer = COALESCE(?, answer), updated_at = ? WHERE business_id = ? AND kind = ? AND run_id = ?',
      ),
    };
  }

  claim(key: IntentKey, runId: string, at = new Date()): Promise<Claim> {
    return settled(() =>
      this.db
        .transaction(() => {
          const claimed: unknown = this.statements.claim.get({ businessId: key.businessId, kind: key.kind, runId, at: at.getTime() });
          return claimOf(claimed, claimed === undefined ? this.statements.find.get(key.businessId, key.kind) : undefined, runId);
        })
        .immediate(),
    );
  }

  record(key: IntentKey, runId: string, update: IntentUpdate, at = new Date()): Promise<void> {
    return settled(() => {
      this.statements.record.run(update.state, update.providerId ?? null, update.answer ?? null, at.getTime(), key.businessId, key.kind, runId);
    });
  }

  find(key: IntentKey): Promise<Intent | undefined> {
    return settled(() => {
      const row: unknown = this.statements.find.get(key.businessId, key.kind);
      return row === undefined ? undefined : intentRowSchema.parse(row);
    });
  }

  close(): Promise<void> {
    return settled(() => {
      if (this.db.open) this.db.close();
    });
  }
}
