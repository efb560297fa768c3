/**
 * The batch store's tables. Migrations are named, applied once each, in this order, at open; a
 * change of schema is a new entry here, never an edit of one already released.
 */
import type { Migration } from '../db/sqlite';
import { READ_MODEL_SQLITE_MIGRATIONS } from '../read-model/migrations';

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
      -- A big batch is stored in many short transactions (the other process never waits long for the lock).
      -- Until the last one it is INSERTING: invisible to readers, resumable by the same request, and
      -- discarded (DISCARDING, then gone) once its insert stopped moving for long (the API process died).
      -- Batches stored before this migration were stored in one transaction: COMPLETE.
      ALTER TABLE batches ADD COLUMN insert_state TEXT NOT NULL DEFAULT 'COMPLETE'
        CHECK (insert_state IN ('INSERTING', 'COMPLETE', 'DISCARDING'));
      -- When the insert last moved forward (ms since the epoch); NULL once COMPLETE.
      ALTER TABLE batches ADD COLUMN insert_progress_at INTEGER;
      CREATE INDEX batches_not_complete ON batches (insert_state) WHERE insert_state <> 'COMPLETE';
    `,
  },
  {
    id: 'batches/004-payout-rails',
    sql: `
      -- Items of every rail: the rail in clear (key_type is then '' but for PIX-key items), the rest sealed.
      ALTER TABLE batch_items ADD COLUMN method TEXT NOT NULL DEFAULT 'pix_key'
        CHECK (method IN ('pix_key', 'pix_copy_paste', 'internal', 'crypto'));
    `,
  },
  {
    id: 'batches/005-money-intents',
    sql: `
      -- One row per money movement the engine is about to make (src/intents): keyed by the business id and
      -- the kind of operation, not the workflow run, so that a re-run (reset, re-run after a terminate)
      -- finds what an earlier run claimed. run_id: the run that holds it; provider_id: the provider's id once
      -- answered; times in ms since the epoch. Rows are never deleted: the claim is the record.
      CREATE TABLE money_intents (
        business_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('payout-submission', 'charge-creation', 'defense-submission')),
        run_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('CLAIMED', 'SENT', 'REFUSED', 'UNKNOWN')),
        provider_id TEXT,
        -- What a re-run needs of the provider's answer and cannot ask for again (a charge's copy-and-paste
        -- code, which its payer is shown anyway), as JSON; never card data, documents or a payee's key.
        answer TEXT,
        claimed_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (business_id, kind)
      ) WITHOUT ROWID;
    `,
  },
  {
    id: 'batches/006-card-authorization-intents',
    sql: `
      -- The checkout's card authorization (endpoint 2) is a money movement too: claimed before the call, with
      -- the provider's data.id once answered. SQLite cannot change a CHECK: the table is copied into a new one.
      CREATE TABLE money_intents_next (
        business_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('payout-submission', 'charge-creation', 'defense-submission', 'card-authorization')),
        run_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('CLAIMED', 'SENT', 'REFUSED', 'UNKNOWN')),
        provider_id TEXT,
        answer TEXT,
        claimed_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (business_id, kind)
      ) WITHOUT ROWID;
      INSERT INTO money_intents_next (business_id, kind, run_id, state, provider_id, answer, claimed_at, updated_at)
        SELECT business_id, kind, run_id, state, provider_id, answer, claimed_at, updated_at FROM money_intents;
      DROP TABLE money_intents;
      ALTER TABLE money_intents_next RENAME TO money_intents;
    `,
  },
  ...READ_MODEL_SQLITE_MIGRATIONS,
];
