/**
 * The read model's tables, in the engine's database beside the batch store's and the intents' (each module
 * applies its own migrations when it opens the database): what the API lists and sums from, and what
 * outlives Temporal's retention. Written as operations move (src/read-model/payout-records.ts, operation-records.ts).
 *
 * `seq` is the index of the operation's transition the row shows: a write never replaces a row of a later
 * transition, and a re-run writes the same row again. Amounts in integer centavos. No PIX key in clear:
 * `destination` is the masked key the view shows, nothing more.
 */
import type { Schema } from '../db/database';
import type { Migration } from '../db/sqlite';

const PAYOUT_COLUMNS = (time: string, money: string): string => `
        external_id TEXT PRIMARY KEY,
        seq INTEGER NOT NULL,
        status TEXT NOT NULL,
        method TEXT NOT NULL,
        batch_id TEXT,
        amount_cents ${money} NOT NULL,
        fee_cents ${money},
        -- The masked PIX key (CPF ***.456.789-**), for PIX-key payouts only.
        key_type TEXT,
        destination TEXT,
        -- The payout's view as its workflow last told it (JSON, no destination): what GET answers once the workflow is gone.
        view TEXT NOT NULL,
        created_at ${time} NOT NULL,
        updated_at ${time} NOT NULL`;

const EVENT_COLUMNS = (time: string): string => `
        event_id TEXT PRIMARY KEY,
        -- The workflow id of the operation it is about (payout:order-1001) and the move's index in its history.
        source_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        occurred_at ${time} NOT NULL,
        -- The event's data as announced (JSON): the same payload the merchant's endpoints receive.
        data TEXT NOT NULL`;

// Newest first in a stable order: (created_at, external_id) descending, by itself and under each filter.
const INDEXES = `
      CREATE INDEX payouts_by_created ON payouts (created_at, external_id);
      CREATE INDEX payouts_by_status ON payouts (status, created_at, external_id);
      CREATE INDEX payouts_by_method ON payouts (method, created_at, external_id);
      CREATE INDEX payouts_by_batch ON payouts (batch_id, created_at, external_id);
      CREATE INDEX operation_events_by_source ON operation_events (source_id, seq);`;

/**
 * Charges, card payments and infractions: one shape, told apart by `kind`. What a list shows and filters on, no more:
 * a charge's payer (name, CPF) never reaches this table.
 */
const OPERATION_COLUMNS = (time: string, money: string): string => `
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        status TEXT NOT NULL,
        -- Absent for an infraction whose provider record could not be read (NEEDS_REVIEW).
        amount_cents ${money},
        -- An infraction's defense deadline.
        deadline ${time},
        created_at ${time} NOT NULL,
        updated_at ${time} NOT NULL,
        PRIMARY KEY (kind, id)`;

const OPERATION_INDEXES = `
      CREATE INDEX operations_by_created ON operations (kind, created_at, id);
      CREATE INDEX operations_by_status ON operations (kind, status, created_at, id);
      CREATE INDEX operations_by_deadline ON operations (kind, deadline);`;

/**
 * An event's delivery as it moves (src/read-model/event-deliveries.ts): its status over all endpoints, the attempts
 * so far, each endpoint's delivery (JSON: state, attempts, nextAttemptAt) and the time of the move the row shows
 * (a write never replaces a later move's). NULL status: no endpoint subscribed, nothing was delivered.
 */
const EVENT_DELIVERY_COLUMNS = (time: string): string => `
      ALTER TABLE operation_events ADD COLUMN status TEXT;
      ALTER TABLE operation_events ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE operation_events ADD COLUMN deliveries TEXT;
      ALTER TABLE operation_events ADD COLUMN delivery_at ${time};
      CREATE INDEX operation_events_delivered ON operation_events (occurred_at, event_id) WHERE status IS NOT NULL;
      CREATE INDEX operation_events_delivered_by_type ON operation_events (type, occurred_at, event_id) WHERE status IS NOT NULL;`;

/** A charge's, card payment's or infraction's details beyond the list's columns, without PII (operation-details.ts). */
const OPERATION_DETAIL_COLUMN = `
      ALTER TABLE operations ADD COLUMN detail TEXT;`;

export const READ_MODEL_SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    id: 'read-model/001-payouts',
    sql: `
      CREATE TABLE payouts (${PAYOUT_COLUMNS('INTEGER', 'INTEGER')}
      ) WITHOUT ROWID;
      CREATE TABLE operation_events (${EVENT_COLUMNS('INTEGER')}
      ) WITHOUT ROWID;
      ${INDEXES}
    `,
  },
  {
    id: 'read-model/002-operations',
    sql: `
      CREATE TABLE operations (${OPERATION_COLUMNS('INTEGER', 'INTEGER')}
      ) WITHOUT ROWID;
      ${OPERATION_INDEXES}
    `,
  },
  { id: 'read-model/003-event-deliveries', sql: `${EVENT_DELIVERY_COLUMNS('INTEGER')}${OPERATION_DETAIL_COLUMN}` },
];

export const READ_MODEL_PG_MIGRATIONS: readonly Migration[] = [
  {
    id: 'read-model/001-payouts',
    sql: `
      CREATE TABLE payouts (${PAYOUT_COLUMNS('TIMESTAMPTZ', 'BIGINT')}
      );
      CREATE TABLE operation_events (${EVENT_COLUMNS('TIMESTAMPTZ')}
      );
      ${INDEXES}
    `,
  },
  {
    id: 'read-model/002-operations',
    sql: `
      CREATE TABLE operations (${OPERATION_COLUMNS('TIMESTAMPTZ', 'BIGINT')}
      );
      ${OPERATION_INDEXES}
    `,
  },
  { id: 'read-model/003-event-deliveries', sql: `${EVENT_DELIVERY_COLUMNS('TIMESTAMPTZ')}${OPERATION_DETAIL_COLUMN}` },
];

export const readModelSchema: Schema = (words) =>
  words.engine === 'sqlite' ? READ_MODEL_SQLITE_MIGRATIONS : READ_MODEL_PG_MIGRATIONS;
