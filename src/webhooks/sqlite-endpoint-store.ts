/**
 * The webhook endpoint store on one SQLite file (default `${DATA_DIR}/webhook-endpoints.sqlite`), which
 * the API (registers, rotates) and the worker (reads on every final state) open at once: WAL lets
 * readers go on while one writes, writes take the lock up front (BEGIN IMMEDIATE) and wait up to
 * busy_timeout for it. The work is synchronous (better-sqlite3); the methods answer with promises.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { settled } from '../batches/batch-store';
import { ItemSealer } from '../batches/item-sealer';
import { applyMigrations, openSqlite } from '../db/sqlite';
import type { EncryptionKey } from '../temporal/payload-codec';
import {
  checkRotation,
  endpointFromColumns,
  openSecrets,
  prepareEndpoint,
  type NewWebhookEndpoint,
  type SecretRotation,
  type SigningSecrets,
  type WebhookEndpoint,
  type WebhookEndpointStore,
} from './endpoint-store';
import type { MerchantEventType } from './merchant-event';
import { ENDPOINT_MIGRATIONS } from './sqlite-endpoint-schema';

export const WEBHOOK_ENDPOINT_STORE_FILE = 'webhook-endpoints.sqlite';

export function webhookEndpointStorePath(dataDir: string): string {
  return path.join(dataDir, WEBHOOK_ENDPOINT_STORE_FILE);
}

export interface SqliteWebhookEndpointStoreOptions {
  /** A file path, or ':memory:' for a store that lives as long as the object. */
  file: string;
  /** Seals new secrets; the engine passes its active payload encryption key. */
  encryptionKey: EncryptionKey;
  /** Open secrets sealed before a key rotation. */
  previousKeys?: readonly EncryptionKey[];
  /** How long a write waits for another process's lock before failing. */
  busyTimeoutMs?: number;
}

interface EndpointRow {
  id: string;
  url: string;
  events: string;
  signature_scheme: string;
  created_at: number;
  secret_rotated_at: number | null;
}
interface SecretRow {
  sealed: Buffer;
  key_id: string;
  previous_sealed: Buffer | null;
  previous_key_id: string | null;
  previous_valid_until: number | null;
}

const ENDPOINT_COLUMNS = 'e.id, e.url, e.events, e.signature_scheme, e.created_at, e.secret_rotated_at';

/** Read on every final state: a search of the subscriptions' primary key, then of the endpoints', never the secrets (exported for its query-plan test). */
export const SUBSCRIBED_TO_SQL = `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoint_events s JOIN webhook_endpoints e ON e.id = s.endpoint_id
  WHERE s.event_type = ? ORDER BY e.created_at, e.id`;

export class SqliteWebhookEndpointStore implements WebhookEndpointStore {
  private readonly db: Database.Database;
  private readonly sealer: ItemSealer;
  private readonly statements;

  constructor(options: SqliteWebhookEndpointStoreOptions) {
    this.sealer = new ItemSealer(options.encryptionKey, options.previousKeys ?? [], 'webhook-secrets');
    // Foreign keys: deleting an endpoint deletes its subscriptions and secrets with it.
    this.db = openSqlite(options.file, { busyTimeoutMs: options.busyTimeoutMs ?? 10_000, foreignKeys: true });
    applyMigrations(this.db, ENDPOINT_MIGRATIONS);
    this.statements = this.prepare();
  }

  private prepare() {
    const db = this.db;
    return {
      insertEndpoint: db.prepare<[string, string, string, string, number]>('INSERT INTO webhook_endpoints (id, url, events, signature_scheme, created_at) VALUES (?, ?, ?, ?, ?)'),
      insertEvent: db.prepare<[string, string]>('INSERT INTO webhook_endpoint_events (event_type, endpoint_id) VALUES (?, ?)'),
      insertSecret: db.prepare<[string, Buffer, string]>('INSERT INTO webhook_endpoint_secrets (endpoint_id, sealed, key_id) VALUES (?, ?, ?)'),
      list: db.prepare<[], EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e ORDER BY e.created_at, e.id`),
      get: db.prepare<[string], EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.id = ?`),
      delete: db.prepare<[string]>('DELETE FROM webhook_endpoints WHERE id = ?'),
      // The right-hand sides read the row as it was: the current secret becomes the previous one.
      rotate: db.prepare<[Buffer, string, number, string]>(
        `UPDATE webhook_endpoint_secrets
         SET previous_sealed = sealed, previous_key_id = key_id, sealed = ?, key_id = ?, previous_valid_until = ?
         WHERE endpoint_id = ?`,
      ),
      setRotatedAt: db.prepare<[number, string]>('UPDATE webhook_endpoints SET secret_rotated_at = ? WHERE id = ?'),
      subscribedTo: db.prepare<[string], EndpointRow>(SUBSCRIBED_TO_SQL),
      secrets: db.prepare<[string], SecretRow>(
        'SELECT sealed, key_id, previous_sealed, previous_key_id, previous_valid_until FROM webhook_endpoint_secrets WHERE endpoint_id = ?',
      ),
    };
  }

  create(newEndpoint: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    return settled(() => {
      const { endpoint, sealedSecret } = prepareEndpoint(newEndpoint, this.sealer);
      this.db
        .transaction(() => {
          this.statements.insertEndpoint.run(endpoint.id, endpoint.url, JSON.stringify(endpoint.events), endpoint.signatureScheme, Date.parse(endpoint.createdAt));
          for (const type of endpoint.events) this.statements.insertEvent.run(type, endpoint.id);
          this.statements.insertSecret.run(endpoint.id, sealedSecret, this.sealer.keyId);
        })
        .immediate();
      return endpoint;
    });
  }

  list(): Promise<WebhookEndpoint[]> {
    return settled(() => this.statements.list.all().map(fromRow));
  }

  get(id: string): Promise<WebhookEndpoint | undefined> {
    return settled(() => {
      const row = this.statements.get.get(id);
      return row && fromRow(row);
    });
  }

  delete(id: string): Promise<boolean> {
    return settled(() => this.statements.delete.run(id).changes === 1);
  }

  rotateSecret(id: string, rotation: SecretRotation): Promise<WebhookEndpoint | undefined> {
    return settled(() => {
      const { secret, previousValidUntil, now } = checkRotation(rotation);
      const sealed = this.sealer.seal(id, secret);
      return this.db
        .transaction(() => {
          if (this.statements.rotate.run(sealed, this.sealer.keyId, previousValidUntil.getTime(), id).changes === 0) return undefined;
          this.statements.setRotatedAt.run(now.getTime(), id);
          const row = this.statements.get.get(id);
          return row && fromRow(row);
        })
        .immediate();
    });
  }

  subscribedTo(type: MerchantEventType): Promise<WebhookEndpoint[]> {
    return settled(() => this.statements.subscribedTo.all(type).map(fromRow));
  }

  secretsOf(id: string, now: Date): Promise<SigningSecrets | undefined> {
    return settled(() => {
      const row = this.statements.secrets.get(id);
      if (!row) return undefined;
      return openSecrets(
        this.sealer,
        id,
        {
          current: row.sealed,
          currentKeyId: row.key_id,
          previous: row.previous_sealed,
          previousKeyId: row.previous_key_id,
          previousValidUntil: row.previous_valid_until === null ? null : new Date(row.previous_valid_until),
        },
        now,
      );
    });
  }

  close(): Promise<void> {
    return settled(() => {
      if (this.db.open) this.db.close();
    });
  }
}

function fromRow(row: EndpointRow): WebhookEndpoint {
  return endpointFromColumns({
    id: row.id,
    url: row.url,
    events: row.events,
    signatureScheme: row.signature_scheme,
    createdAt: new Date(row.created_at),
    secretRotatedAt: row.secret_rotated_at === null ? null : new Date(row.secret_rotated_at),
  });
}
