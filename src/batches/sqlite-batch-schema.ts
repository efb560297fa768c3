/**
 * The batch store's tables. Migrations are named, applied once each, in this order, at open; a
 * change of schema is a new entry here, never an edit of one already released.
 */
import type { Migration } from '../db/sqlite';

export const BATCH_MIGRATIONS: readonly Migration[] = [
  {
    id: 'batches/001-initial',
    sql: `
      CREATE TABLE batches (
        batch_id TEXT PRIMARY KEY,
        request_hash TEXT NOT NULL,
        total INTEGER NOT NULL,
        total_amount_cents INTEGER NOT NULL,
        control TEXT NOT NULL CHECK (control IN ('RUNNING', 'PAUSED', 'CANCELLED')),
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER
      ) WITHOUT ROWID;

      -- Every payout id the engine has accepted, from a batch or alone: one id, one payout, ever.
      CREATE TABLE payout_ids (
        external_id TEXT PRIMARY KEY,
        batch_id TEXT
      ) WITHOUT ROWID;

      -- sealed: AES-256-GCM of the PIX key and description; amounts in integer centavos.
      CREATE TABLE batch_items (
        batch_id TEXT NOT NULL REFERENCES batches (batch_id),
        seq INTEGER NOT NULL,
        external_id TEXT NOT NULL,
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        key_type TEXT NOT NULL,
        sealed BLOB NOT NULL,
        state TEXT NOT NULL DEFAULT 'PENDING'
          CHECK (state IN ('PENDING', 'STARTED', 'COMPLETED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW')),
        fee_cents INTEGER,
        failure_reason TEXT,
        PRIMARY KEY (batch_id, seq)
      ) WITHOUT ROWID;

      CREATE UNIQUE INDEX batch_items_by_external_id ON batch_items (batch_id, external_id);
      -- Serves the items list by state in seq order, and (with amount_cents) the summary's totals without touching the rows.
      CREATE INDEX batch_items_by_state ON batch_items (batch_id, state, seq, amount_cents);
    `,
  },
];
