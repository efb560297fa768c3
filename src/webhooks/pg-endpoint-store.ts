/**
 * The webhook endpoint store on the batch store's PostgreSQL server (BATCH_STORE_URL), in its own
 * tables: the API registers and rotates, the workers on several machines read. Same contract as
 * SqliteWebhookEndpointStore; every write is one statement or one transaction, so concurrent
 * rotations serialise on the secret's row and each retires the secret the previous one set.
 */
import { Pool } from 'pg';
import { ItemSealer } from '../batches/item-sealer';
import { applyPgMigrations, inTransaction } from '../db/postgres';
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
import { PG_ENDPOINT_MIGRATIONS } from './pg-endpoint-schema';

export interface PgWebhookEndpointStoreOptions {
  /** postgres://user:password@host:port/database */
  connectionString: string;
  /** Seals new secrets; the engine passes its active payload encryption key. */
  encryptionKey: EncryptionKey;
  /** Open secrets sealed before a key rotation. */
  previousKeys?: readonly EncryptionKey[];
  /** Connections of this process to the server: reads are single short statements. */
  poolSize?: number;
}

interface EndpointRow {
  id: string;
  url: string;
  events: string;
  signature_scheme: string;
  created_at: Date;
  secret_rotated_at: Date | null;
}
interface SecretRow {
  sealed: Buffer;
  key_id: string;
  previous_sealed: Buffer | null;
  previous_key_id: string | null;
  previous_valid_until: Date | null;
}

const ENDPOINT_COLUMNS = 'e.id, e.url, e.events, e.signature_scheme, e.created_at, e.secret_rotated_at';

export class PgWebhookEndpointStore implements WebhookEndpointStore {
  private readonly pool: Pool;
  private readonly sealer: ItemSealer;
  private closing: Promise<void> | undefined;

  /** Use PgWebhookEndpointStore.open: the schema must be migrated before the store is used. */
  private constructor(options: PgWebhookEndpointStoreOptions) {
    this.sealer = new ItemSealer(options.encryptionKey, options.previousKeys ?? [], 'webhook-secrets');
    this.pool = new Pool({ connectionString: options.connectionString, max: options.poolSize ?? 4 });
    // An idle connection the server dropped must not take the process down; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  /** Connects and applies the migrations not yet applied. */
  static async open(options: PgWebhookEndpointStoreOptions): Promise<PgWebhookEndpointStore> {
    const store = new PgWebhookEndpointStore(options);
    try {
      await applyPgMigrations(store.pool, PG_ENDPOINT_MIGRATIONS);
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async create(newEndpoint: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    const { endpoint, sealedSecret } = prepareEndpoint(newEndpoint, this.sealer);
    await inTransaction(this.pool, async (client) => {
      await client.query('INSERT INTO webhook_endpoints (id, url, events, signature_scheme, created_at) VALUES ($1, $2, $3, $4, $5)', [
        endpoint.id,
        endpoint.url,
        JSON.stringify(endpoint.events),
        endpoint.signatureScheme,
        endpoint.createdAt,
      ]);
      await client.query('INSERT INTO webhook_endpoint_events (event_type, endpoint_id) SELECT unnest($1::text[]), $2', [endpoint.events, endpoint.id]);
      await client.query('INSERT INTO webhook_endpoint_secrets (endpoint_id, sealed, key_id) VALUES ($1, $2, $3)', [endpoint.id, sealedSecret, this.sealer.keyId]);
    });
    return endpoint;
  }

  async list(): Promise<WebhookEndpoint[]> {
    const { rows } = await this.pool.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e ORDER BY e.created_at, e.id`);
    return rows.map(fromRow);
  }

  async get(id: string): Promise<WebhookEndpoint | undefined> {
    const { rows } = await this.pool.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.id = $1`, [id]);
    return rows[0] && fromRow(rows[0]);
  }

  async delete(id: string): Promise<boolean> {
    // The subscriptions and secrets go with it (ON DELETE CASCADE).
    const { rowCount } = await this.pool.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
    return rowCount === 1;
  }

  async rotateSecret(id: string, rotation: SecretRotation): Promise<WebhookEndpoint | undefined> {
    const { secret, previousValidUntil, now } = checkRotation(rotation);
    const sealed = this.sealer.seal(id, secret);
    // One statement: the secret's row is locked by its UPDATE, whose right-hand sides read the newest
    // version of it (a concurrent rotation committed first is the one retired here).
    const { rows } = await this.pool.query<EndpointRow>(
      `WITH rotated AS (
         UPDATE webhook_endpoint_secrets
         SET previous_sealed = sealed, previous_key_id = key_id, sealed = $2, key_id = $3, previous_valid_until = $4
         WHERE endpoint_id = $1
         RETURNING endpoint_id
       )
       UPDATE webhook_endpoints e SET secret_rotated_at = $5 FROM rotated WHERE e.id = rotated.endpoint_id
       RETURNING ${ENDPOINT_COLUMNS}`,
      [id, sealed, this.sealer.keyId, previousValidUntil, now],
    );
    return rows[0] && fromRow(rows[0]);
  }

  async subscribedTo(type: MerchantEventType): Promise<WebhookEndpoint[]> {
    const { rows } = await this.pool.query<EndpointRow>({
      // Named: prepared once per connection.
      name: 'webhook-endpoints-subscribed-to',
      text: `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoint_events s JOIN webhook_endpoints e ON e.id = s.endpoint_id
             WHERE s.event_type = $1 ORDER BY e.created_at, e.id`,
      values: [type],
    });
    return rows.map(fromRow);
  }

  async secretsOf(id: string, now: Date): Promise<SigningSecrets | undefined> {
    const { rows } = await this.pool.query<SecretRow>(
      'SELECT sealed, key_id, previous_sealed, previous_key_id, previous_valid_until FROM webhook_endpoint_secrets WHERE endpoint_id = $1',
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    return openSecrets(
      this.sealer,
      id,
      { current: row.sealed, currentKeyId: row.key_id, previous: row.previous_sealed, previousKeyId: row.previous_key_id, previousValidUntil: row.previous_valid_until },
      now,
    );
  }

  /** Idempotent, like the SQLite store's. */
  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }
}

function fromRow(row: EndpointRow): WebhookEndpoint {
  return endpointFromColumns({ id: row.id, url: row.url, events: row.events, signatureScheme: row.signature_scheme, createdAt: row.created_at, secretRotatedAt: row.secret_rotated_at });
}
