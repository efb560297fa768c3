/**
 * The batch store's tables in PostgreSQL: the same rows as the SQLite schema (sqlite-batch-schema.ts),
 * in PostgreSQL's types. Migrations are named, applied once each, in this order; a change of schema is
 * a new entry here, never an edit of one already released.
 */
import type { Migration } from '../db/sqlite';
import { READ_MODEL_PG_MIGRATIONS } from '../read-model/migrations';

export const PG_BATCH_MIGRATIONS: readonly Migration[] = [
  {
    id: 'batches/001-initial',
    sql: `
      -- insert_state: a big batch is stored in many short transactions; until the last one it is
      -- INSERTING (invisible to readers, resumable by the same request), and DISCARDING then gone once
      -- its insert stopped moving for long (the process storing it died).
      CREATE TABLE batches (
        batch_id TEXT PRIMARY KEY,
        request_hash TEXT NOT NULL,
        total INTEGER NOT NULL,
        total_amount_cents BIGINT NOT NULL,
        control TEXT NOT NULL CHECK (control IN ('RUNNING', 'PAUSED', 'CANCELLED')),
        created_at TIMESTAMPTZ NOT NULL,
        started_at TIMESTAMPTZ,
        finished_at TIMESTAMPTZ,
        insert_state TEXT NOT NULL CHECK (insert_state IN ('INSERTING', 'COMPLETE', 'DISCARDING')),
        -- When the insert last moved forward, by the database's clock (machines' clocks differ); NULL once COMPLETE.
        insert_progress_at TIMESTAMPTZ
      );
      CREATE INDEX batches_not_complete ON batches (insert_state) WHERE insert_state <> 'COMPLETE';

      -- Every payout id the engine has accepted, from a batch or alone: one id, one payout, ever.
      CREATE TABLE payout_ids (
        external_id TEXT PRIMARY KEY,
        batch_id TEXT
      );

      -- sealed: AES-256-GCM of the destination and description (key_id: the key that sealed it); amounts in integer centavos.
      CREATE TABLE batch_items (
        batch_id TEXT NOT NULL REFERENCES batches (batch_id),
        seq INTEGER NOT NULL,
        external_id TEXT NOT NULL,
        amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
        method TEXT NOT NULL CHECK (method IN ('pix_key', 'pix_copy_paste', 'internal', 'crypto')),
        key_type TEXT NOT NULL,
        sealed BYTEA NOT NULL,
        key_id TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'PENDING'
          CHECK (state IN ('PENDING', 'STARTED', 'COMPLETED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW')),
        fee_cents BIGINT,
        failure_reason TEXT,
        PRIMARY KEY (batch_id, seq)
      );
      CREATE UNIQUE INDEX batch_items_by_external_id ON batch_items (batch_id, external_id);
      -- Serves the items list by state in seq order, and the summary's totals from the index alone.
      CREATE INDEX batch_items_by_state ON batch_items (batch_id, state, seq) INCLUDE (amount_cents);
    `,
  },
  {
    id: 'batches/002-money-intents',
    sql: `
      -- One row per money movement the engine is about to make (src/intents): keyed by the business id and
      -- the kind of operation, not the workflow run, so that a re-run (reset, re-run after a terminate)
      -- finds what an earlier run claimed. run_id: the run that holds it; provider_id: the provider's id
      -- once answered. Rows are never deleted: the claim is the record.
      CREATE TABLE money_intents (
        business_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('payout-submission', 'charge-creation', 'defense-submission')),
        run_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('CLAIMED', 'SENT', 'REFUSED', 'UNKNOWN')),
        provider_id TEXT,
        -- What a re-run needs of the provider's answer and cannot ask for again (a charge's copy-and-paste
        -- code, which its payer is shown anyway), as JSON; never card data, documents or a payee's key.
        answer TEXT,
        claimed_at TIMESTAMPTZ NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (business_id, kind)
      );
    `,
  },
  {
    id: 'batches/003-card-authorization-intents',
    sql: `
      -- The checkout's card authorization (endpoint 2) is a money movement too: claimed before the call, with
      -- the provider's data.id once answered.
      ALTER TABLE money_intents DROP CONSTRAINT money_intents_kind_check;
      ALTER TABLE money_intents ADD CONSTRAINT money_intents_kind_check
        CHECK (kind IN ('payout-submission', 'charge-creation', 'defense-submission', 'card-authorization'));
    `,
  },
  ...READ_MODEL_PG_MIGRATIONS,
];
