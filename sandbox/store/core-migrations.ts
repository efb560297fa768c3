/**
 * The core tables. Amounts are INTEGER centavos everywhere; times are Unix milliseconds.
 * Product modules add their own tables through their own migrations (see SandboxProduct.migrations).
 */
import type { Migration } from './database';

export const coreMigrations: readonly Migration[] = [
  {
    id: 'core/001-initial',
    sql: `
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        name TEXT NOT NULL,
        client_id TEXT NOT NULL UNIQUE,
        -- sha256 of the secret: a leaked database file does not leak credentials
        client_secret_sha256 TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE operations (
        id TEXT PRIMARY KEY,                 -- the provider's transaction id (wd_..., pp_..., it_...)
        user_id TEXT NOT NULL REFERENCES users(id),
        product TEXT NOT NULL,               -- withdrawal, pix-copy-paste, internal-transfer, ...
        external_id TEXT,                    -- the client's own id (unique per client unless SANDBOX_DEDUPLICATE=false)
        status TEXT NOT NULL,                -- the product's own status (PROCESSING, COMPLETED, ...)
        amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
        fee_cents INTEGER NOT NULL DEFAULT 0 CHECK (fee_cents >= 0),
        fingerprint TEXT,                    -- sha256 of the fields that must match on an idempotent replay
        callback_url TEXT,
        failure_reason TEXT,
        details TEXT NOT NULL DEFAULT '{}',  -- JSON, product-specific, never a full PIX key or document
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX operations_client_external_id ON operations (user_id, external_id) WHERE external_id IS NOT NULL;
      CREATE INDEX operations_external_id ON operations (external_id);

      CREATE TABLE ledger_entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        operation_id TEXT,
        external_id TEXT,
        kind TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX ledger_entries_external_id ON ledger_entries (external_id);
      CREATE INDEX ledger_entries_operation_id ON ledger_entries (operation_id);

      CREATE TABLE ledger_lines (
        entry_id INTEGER NOT NULL REFERENCES ledger_entries(id),
        account TEXT NOT NULL,
        amount_cents INTEGER NOT NULL CHECK (amount_cents <> 0)
      );
      CREATE INDEX ledger_lines_account ON ledger_lines (account);
      CREATE INDEX ledger_lines_entry ON ledger_lines (entry_id);

      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        operation_id TEXT,
        payload TEXT NOT NULL DEFAULT '{}',
        due_at INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',  -- pending, done, cancelled, failed
        last_error TEXT,
        created_at INTEGER NOT NULL,
        finished_at INTEGER
      );
      CREATE INDEX jobs_due ON jobs (status, due_at);

      CREATE TABLE callbacks (
        id TEXT PRIMARY KEY,                 -- the event id, sent as X-Service-Webhook-Id on every attempt
        operation_id TEXT,
        type TEXT NOT NULL,
        url TEXT NOT NULL,
        body TEXT NOT NULL,                  -- the exact bytes that are signed and sent
        status TEXT NOT NULL,                -- held, pending, delivered, failed, dropped
        attempts INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        extra_copies INTEGER NOT NULL DEFAULT 0,  -- fault injection: duplicates sent after a success
        next_attempt_at INTEGER NOT NULL,
        last_status_code INTEGER,
        last_error TEXT,
        created_at INTEGER NOT NULL,
        seq INTEGER NOT NULL,                -- creation order, for the reorder fault
        delivered_at INTEGER
      );
      CREATE INDEX callbacks_due ON callbacks (status, next_attempt_at);

      CREATE TABLE callback_attempts (
        callback_id TEXT NOT NULL REFERENCES callbacks(id),
        attempt INTEGER NOT NULL,
        at INTEGER NOT NULL,
        status_code INTEGER,
        error TEXT,
        duration_ms INTEGER NOT NULL
      );
      CREATE INDEX callback_attempts_callback ON callback_attempts (callback_id);
    `,
  },
  {
    // The client's id is looked up, no longer unique: with SANDBOX_DEDUPLICATE=false a repeated external_id
    // is a second operation. De-duplication (the default) is the products' own check, inside the
    // transaction that inserts, as before.
    id: 'core/002-external-id-not-unique',
    sql: `
      DROP INDEX operations_client_external_id;
      CREATE INDEX operations_client_external_id ON operations (user_id, external_id) WHERE external_id IS NOT NULL;
    `,
  },
];
