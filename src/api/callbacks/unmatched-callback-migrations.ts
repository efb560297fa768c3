/**
 * The unmatched-callback store's table, in the engine's database (SQLite: the batch store's file;
 * PostgreSQL: DATABASE_URL), written once for both. Migrations are named, applied once each, in this order;
 * a change of schema is a new entry, never an edit of one already released.
 */
import type { Schema } from '../../db/database';

/**
 * One row per kept callback. dedupe_key: the provider's event id of a signed callback, or the reference of
 * an unsigned one (whose repeats only count), NULL when a callback has neither; count: how many came.
 * payload: the fields the route's schema declared (from 002: the fields the engine read), each cut short, as JSON; NULL for an unsigned callback
 * (nobody vouches for it: only its ids are kept). Newest kept: pruned by (last_received_at, seq).
 */
export const unmatchedCallbackTables: Schema = (w) => [
  {
    id: 'callbacks/001-unmatched',
    sql: `
      CREATE TABLE unmatched_callbacks (
        seq ${w.serial},
        route TEXT NOT NULL,
        dedupe_key TEXT,
        reference TEXT NOT NULL,
        provider_id TEXT,
        event_id TEXT,
        signed INTEGER NOT NULL CHECK (signed IN (0, 1)),
        payload TEXT,
        count INTEGER NOT NULL,
        first_received_at ${w.time} NOT NULL,
        last_received_at ${w.time} NOT NULL,
        UNIQUE (route, dedupe_key)
      );
      CREATE INDEX unmatched_callbacks_by_recency ON unmatched_callbacks (last_received_at, seq);
      -- How many rows were pruned to keep the table within UNMATCHED_CALLBACKS_MAX, ever: one row.
      CREATE TABLE unmatched_callback_drops (id INTEGER PRIMARY KEY CHECK (id = 1), dropped ${w.int64} NOT NULL);
      INSERT INTO unmatched_callback_drops (id, dropped) VALUES (1, 0);
    `,
  },
  {
    // problem: why a callback names no operation (its id could not be read: the names the engine looked for); NULL otherwise.
    id: 'callbacks/002-unmatched-problem',
    sql: 'ALTER TABLE unmatched_callbacks ADD COLUMN problem TEXT;',
  },
];
