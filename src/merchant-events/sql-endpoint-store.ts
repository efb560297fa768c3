/**
 * The webhook endpoint store, written once over a SQL runner (src/db/sql.ts): the API registers and
 * rotates, the workers read on every final state. SQLite: one file under DATA_DIR (default
 * `${DATA_DIR}/webhook-endpoints.sqlite`) that the API and the worker open at once (WAL; writes take the
 * lock up front). PostgreSQL: the DATABASE_URL server, in tables of its own, for workers on several
 * machines. A rotation's UPDATE reads the secret's newest row version under its lock, so concurrent
 * rotations serialise and each retires the secret the previous one set.
 */
import path from 'node:path';
import { openPgDatabase, openSqliteDatabase } from '../db/database';
import { ItemSealer } from '../db/item-sealer';
import type { SqlDialect, SqlRunner } from '../db/sql';
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
import { endpointSchema } from './endpoint-schema';

export const WEBHOOK_ENDPOINT_STORE_FILE = 'webhook-endpoints.sqlite';

export function webhookEndpointStorePath(dataDir: string): string {
  return path.join(dataDir, WEBHOOK_ENDPOINT_STORE_FILE);
}

export interface WebhookEndpointStoreOptions {
  /** Seals new secrets; the engine passes its active payload encryption key. */
  encryptionKey: EncryptionKey;
  /** Open secrets sealed before a key rotation. */
  previousKeys?: readonly EncryptionKey[];
}

export interface SqliteWebhookEndpointStoreOptions extends WebhookEndpointStoreOptions {
  /** A file path, or ':memory:' for a store that lives as long as the object. */
  file: string;
}

export interface PgWebhookEndpointStoreOptions extends WebhookEndpointStoreOptions {
  /** postgres://user:password@host:port/database */
  connectionString: string;
}

interface EndpointRow {
  id: string;
  url: string;
  events: string;
  signature_scheme: string;
  created_at: unknown;
  secret_rotated_at: unknown;
}
interface SecretRow {
  sealed: Buffer;
  key_id: string;
  previous_sealed: Buffer | null;
  previous_key_id: string | null;
  previous_valid_until: unknown;
}

const ENDPOINT_COLUMNS = 'e.id, e.url, e.events, e.signature_scheme, e.created_at, e.secret_rotated_at';

/** Read on every final state: a search of the subscriptions' primary key, then of the endpoints', never the secrets (exported for its query-plan test). */
export const SUBSCRIBED_TO_SQL = `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoint_events s JOIN webhook_endpoints e ON e.id = s.endpoint_id
  WHERE s.event_type = $1 ORDER BY e.created_at, e.id`;

export class SqlWebhookEndpointStore implements WebhookEndpointStore {
  private readonly sealer: ItemSealer;

  protected constructor(
    private readonly db: SqlRunner,
    private readonly dialect: SqlDialect,
    options: WebhookEndpointStoreOptions,
  ) {
    this.sealer = new ItemSealer(options.encryptionKey, options.previousKeys ?? [], 'webhook-secrets');
  }

  async create(newEndpoint: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    const { endpoint, sealedSecret } = prepareEndpoint(newEndpoint, this.sealer);
    const events = this.dialect.rows(
      'subscribed',
      [{ name: 'event_type', type: 'text' }],
      endpoint.events.map((type) => [type]),
      2,
    );
    await this.db.transaction(async (tx) => {
      await tx.query(
        'INSERT INTO webhook_endpoints (id, url, events, signature_scheme, created_at) VALUES ($1, $2, $3, $4, $5)',
        [
          endpoint.id,
          endpoint.url,
          JSON.stringify(endpoint.events),
          endpoint.signatureScheme,
          this.dialect.timeParam(new Date(endpoint.createdAt)),
        ],
      );
      await tx.query(
        `INSERT INTO webhook_endpoint_events (event_type, endpoint_id) SELECT subscribed.event_type, $1 FROM ${events.sql}`,
        [endpoint.id, ...events.params],
      );
      await tx.query('INSERT INTO webhook_endpoint_secrets (endpoint_id, sealed, key_id) VALUES ($1, $2, $3)', [
        endpoint.id,
        sealedSecret,
        this.sealer.keyId,
      ]);
    });
    return endpoint;
  }

  async list(): Promise<WebhookEndpoint[]> {
    const { rows } = await this.db.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e ORDER BY e.created_at, e.id`,
    );
    return rows.map((row) => this.fromRow(row));
  }

  async get(id: string): Promise<WebhookEndpoint | undefined> {
    const { rows } = await this.db.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.id = $1`,
      [id],
    );
    return rows[0] && this.fromRow(rows[0]);
  }

  async delete(id: string): Promise<boolean> {
    // The subscriptions and secrets go with it (ON DELETE CASCADE).
    const { changes } = await this.db.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
    return changes === 1;
  }

  async rotateSecret(id: string, rotation: SecretRotation): Promise<WebhookEndpoint | undefined> {
    const { secret, previousValidUntil, now } = checkRotation(rotation);
    const sealed = this.sealer.seal(id, secret);
    return this.db.transaction(async (tx) => {
      // The right-hand sides read the row as it was: the current secret becomes the previous one.
      const rotated = await tx.query(
        `UPDATE webhook_endpoint_secrets
         SET previous_sealed = sealed, previous_key_id = key_id, sealed = $2, key_id = $3, previous_valid_until = $4
         WHERE endpoint_id = $1`,
        [id, sealed, this.sealer.keyId, this.dialect.timeParam(previousValidUntil)],
      );
      if (rotated.changes === 0) return undefined;
      await tx.query('UPDATE webhook_endpoints SET secret_rotated_at = $2 WHERE id = $1', [
        id,
        this.dialect.timeParam(now),
      ]);
      const { rows } = await tx.query<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.id = $1`,
        [id],
      );
      return rows[0] && this.fromRow(rows[0]);
    });
  }

  async subscribedTo(type: MerchantEventType): Promise<WebhookEndpoint[]> {
    const { rows } = await this.db.query<EndpointRow>(SUBSCRIBED_TO_SQL, [type]);
    return rows.map((row) => this.fromRow(row));
  }

  async secretsOf(id: string, now: Date): Promise<SigningSecrets | undefined> {
    const { rows } = await this.db.query<SecretRow>(
      'SELECT sealed, key_id, previous_sealed, previous_key_id, previous_valid_until FROM webhook_endpoint_secrets WHERE endpoint_id = $1',
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    return openSecrets(
      this.sealer,
      id,
      {
        current: row.sealed,
        currentKeyId: row.key_id,
        previous: row.previous_sealed,
        previousKeyId: row.previous_key_id,
        previousValidUntil: row.previous_valid_until === null ? null : this.dialect.timeOf(row.previous_valid_until),
      },
      now,
    );
  }

  /** Idempotent. */
  close(): Promise<void> {
    return this.db.close();
  }

  private fromRow(row: EndpointRow): WebhookEndpoint {
    return endpointFromColumns({
      id: row.id,
      url: row.url,
      events: row.events,
      signatureScheme: row.signature_scheme,
      createdAt: this.dialect.timeOf(row.created_at),
      secretRotatedAt: row.secret_rotated_at === null ? null : this.dialect.timeOf(row.secret_rotated_at),
    });
  }
}

export class SqliteWebhookEndpointStore extends SqlWebhookEndpointStore {
  constructor(options: SqliteWebhookEndpointStoreOptions) {
    // Foreign keys: deleting an endpoint deletes its subscriptions and secrets with it.
    const { runner, dialect } = openSqliteDatabase(options.file, endpointSchema, { foreignKeys: true });
    super(runner, dialect, options);
  }
}

export class PgWebhookEndpointStore extends SqlWebhookEndpointStore {
  /** Connects (a pool of openPgDatabase's default size: reads are single short statements) and applies the migrations not yet applied. */
  static async open(options: PgWebhookEndpointStoreOptions): Promise<WebhookEndpointStore> {
    const { runner, dialect } = await openPgDatabase(options.connectionString, endpointSchema);
    return new PgWebhookEndpointStore(runner, dialect, options);
  }
}
