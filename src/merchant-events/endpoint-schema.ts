/**
 * The webhook endpoint store's tables, written once for SQLite and PostgreSQL (the dialect supplies the words
 * they spell differently). Migrations are named, applied once each, in this order, at open; a change of
 * schema is a new entry here, never an edit of one already released.
 */
import type { Schema } from '../db/database';

export const endpointSchema: Schema = (w) => [
  {
    id: 'webhooks/001-endpoints',
    sql: `
      -- events: the JSON text array of the event types, in the order of MERCHANT_EVENT_TYPES.
      CREATE TABLE webhook_endpoints (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        created_at ${w.time} NOT NULL,
        secret_rotated_at ${w.time}
      )${w.tableEnd};
      CREATE INDEX webhook_endpoints_by_age ON webhook_endpoints (created_at, id);

      -- One row per subscribed type: who gets an event is one index range, read on every final state.
      CREATE TABLE webhook_endpoint_events (
        event_type TEXT NOT NULL,
        endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        PRIMARY KEY (event_type, endpoint_id)
      )${w.tableEnd};
      CREATE INDEX webhook_endpoint_events_by_endpoint ON webhook_endpoint_events (endpoint_id);

      -- The signing secrets, apart from what lists read: AES-256-GCM under the endpoint id (key_id: the
      -- payload key that sealed it). previous: the secret retired by the last rotation, signing too until previous_valid_until.
      CREATE TABLE webhook_endpoint_secrets (
        endpoint_id TEXT PRIMARY KEY REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        sealed ${w.bytes} NOT NULL,
        key_id TEXT NOT NULL,
        previous_sealed ${w.bytes},
        previous_key_id TEXT,
        previous_valid_until ${w.time}
      )${w.tableEnd};
    `,
  },
  {
    // Endpoints registered before Standard Webhooks keep the scheme their receivers verify (legacy); new ones say theirs.
    id: 'webhooks/002-signature-scheme',
    sql: `ALTER TABLE webhook_endpoints ADD COLUMN signature_scheme TEXT NOT NULL DEFAULT 'legacy';`,
  },
];
