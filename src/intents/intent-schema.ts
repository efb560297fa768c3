/**
 * The intent store's table, in the engine's database beside the batch store's. Its migrations were the batch
 * store's until the table moved here: `formerly` names the ids databases recorded them under then.
 */
import type { Schema } from '../db/database';

const KINDS = "'payout-submission', 'charge-creation', 'defense-submission', 'card-authorization'";

export const intentSchema: Schema = (w) => [
  {
    id: 'intents/001-money-intents',
    formerly: ['batches/005-money-intents', 'batches/002-money-intents'],
    covers: ['intents/002-card-authorization-intents'],
    sql: `
      -- One row per money movement the engine is about to make (src/intents): keyed by the business id and
      -- the kind of operation, not the workflow run, so that a re-run (reset, re-run after a terminate)
      -- finds what an earlier run claimed. run_id: the run that holds it; provider_id: the provider's id
      -- once answered. Rows are never deleted: the claim is the record.
      CREATE TABLE money_intents (
        business_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN (${KINDS})),
        run_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('CLAIMED', 'SENT', 'REFUSED', 'UNKNOWN')),
        provider_id TEXT,
        -- What a re-run needs of the provider's answer and cannot ask for again (a charge's copy-and-paste
        -- code, which its payer is shown anyway), as JSON; never card data, documents or a payee's key.
        answer TEXT,
        claimed_at ${w.time} NOT NULL,
        updated_at ${w.time} NOT NULL,
        PRIMARY KEY (business_id, kind)
      )${w.tableEnd};
    `,
  },
  {
    // The checkout's card authorization (endpoint 2) is a money movement too, for tables made before it was.
    id: 'intents/002-card-authorization-intents',
    formerly: ['batches/006-card-authorization-intents', 'batches/003-card-authorization-intents'],
    sql: w.engine === 'sqlite' ? SQLITE_NEW_KINDS : PG_NEW_KINDS,
  },
  {
    // A callback that names its operation only by the provider's id finds it here (the provider's answer wrote it).
    id: 'intents/003-provider-id-index',
    sql: 'CREATE INDEX money_intents_by_provider_id ON money_intents (provider_id, kind);',
  },
];

// SQLite cannot change a CHECK: the table is copied into a new one.
const SQLITE_NEW_KINDS = `
  CREATE TABLE money_intents_next (
    business_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN (${KINDS})),
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
`;

const PG_NEW_KINDS = `
  ALTER TABLE money_intents DROP CONSTRAINT money_intents_kind_check;
  ALTER TABLE money_intents ADD CONSTRAINT money_intents_kind_check CHECK (kind IN (${KINDS}));
`;
