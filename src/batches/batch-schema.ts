/**
 * The batch store's tables, written once for SQLite and PostgreSQL (the dialect supplies the words they spell
 * differently). Migrations are named, applied once each, in this order, at open; a change of schema is a new
 * entry here, never an edit of one already released.
 */
import type { Schema } from '../db/database';

/** Upgrades of SQLite files made before batches/001-initial held the whole table (PostgreSQL began with it). */
const SQLITE_UPGRADES = ['batches/002-sealed-key-id', 'batches/003-insert-state', 'batches/004-payout-rails'];

export const batchSchema: Schema = (w) => [
  {
    id: 'batches/001-initial',
    covers: w.engine === 'sqlite' ? SQLITE_UPGRADES : [],
    sql: `
      -- insert_state: a big batch is stored in many short transactions; until the last one it is
      -- INSERTING (invisible to readers, resumable by the same request), and DISCARDING then gone once
      -- its insert stopped moving for long (the process storing it died).
      CREATE TABLE batches (
        batch_id TEXT PRIMARY KEY,
        request_hash TEXT NOT NULL,
        total INTEGER NOT NULL,
        total_amount_cents ${w.int64} NOT NULL,
        control TEXT NOT NULL CHECK (control IN ('RUNNING', 'PAUSED', 'CANCELLED')),
        created_at ${w.time} NOT NULL,
        started_at ${w.time},
        finished_at ${w.time},
        insert_state TEXT NOT NULL CHECK (insert_state IN ('INSERTING', 'COMPLETE', 'DISCARDING')),
        -- When the insert last moved forward, by the database's clock (machines' clocks differ); NULL once COMPLETE.
        insert_progress_at ${w.time}
      )${w.tableEnd};
      CREATE INDEX batches_not_complete ON batches (insert_state) WHERE insert_state <> 'COMPLETE';

      -- Every payout id the engine has accepted, from a batch or alone: one id, one payout, ever.
      CREATE TABLE payout_ids (
        external_id TEXT PRIMARY KEY,
        batch_id TEXT
      )${w.tableEnd};

      -- sealed: AES-256-GCM of the destination and description (key_id: the key that sealed it); amounts in integer centavos.
      CREATE TABLE batch_items (
        batch_id TEXT NOT NULL REFERENCES batches (batch_id),
        seq INTEGER NOT NULL,
        external_id TEXT NOT NULL,
        amount_cents ${w.int64} NOT NULL CHECK (amount_cents > 0),
        method TEXT NOT NULL CHECK (method IN ('pix_key', 'pix_copy_paste', 'internal', 'crypto')),
        key_type TEXT NOT NULL,
        sealed ${w.bytes} NOT NULL,
        key_id TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'PENDING'
          CHECK (state IN ('PENDING', 'STARTED', 'COMPLETED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW')),
        fee_cents ${w.int64},
        failure_reason TEXT,
        PRIMARY KEY (batch_id, seq)
      )${w.tableEnd};
      CREATE UNIQUE INDEX batch_items_by_external_id ON batch_items (batch_id, external_id);
      -- Serves the items list by state in seq order, and the summary's totals from the index alone.
      CREATE INDEX batch_items_by_state ON batch_items ${w.covering('batch_id, state, seq', 'amount_cents')};
    `,
  },
  ...(w.engine === 'sqlite' ? SQLITE_UPGRADE_STEPS : []),
];

/** What SQLite files whose batches/001-initial was the first, smaller table run to reach the table above. */
const SQLITE_UPGRADE_STEPS = [
  {
    id: 'batches/002-sealed-key-id',
    sql: `
      -- The id of the payload key that sealed the row, so that a key rotation keeps old rows readable.
      -- NULL: sealed before ids were stored; such a row is opened by trying each configured key.
      ALTER TABLE batch_items ADD COLUMN key_id TEXT;
    `,
  },
  {
    id: 'batches/003-insert-state',
    sql: `
      -- Batches stored before this migration were stored in one transaction: COMPLETE.
      ALTER TABLE batches ADD COLUMN insert_state TEXT NOT NULL DEFAULT 'COMPLETE'
        CHECK (insert_state IN ('INSERTING', 'COMPLETE', 'DISCARDING'));
      ALTER TABLE batches ADD COLUMN insert_progress_at INTEGER;
      CREATE INDEX batches_not_complete ON batches (insert_state) WHERE insert_state <> 'COMPLETE';
    `,
  },
  {
    id: 'batches/004-payout-rails',
    sql: `
      -- Items from before the other rails were PIX-key items.
      ALTER TABLE batch_items ADD COLUMN method TEXT NOT NULL DEFAULT 'pix_key'
        CHECK (method IN ('pix_key', 'pix_copy_paste', 'internal', 'crypto'));
    `,
  },
];
