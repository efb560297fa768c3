/**
 * The webhook endpoint store's contract, run against both implementations as the engine opens them
 * (openWebhookEndpointStore): SQLite (a DATA_DIR per test) and PostgreSQL (DATABASE_URL, a database
 * per test on a real server started for this file, test/helpers/postgres.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { applyPgMigrations } from '../../src/db/postgres';
import { applyMigrations } from '../../src/db/sqlite';
import { batchSchema } from '../../src/batches/batch-schema';
import { postgresDialect } from '../../src/db/postgres-dialect';
import { sqliteDialect } from '../../src/db/sqlite-dialect';
import { PgBatchStore } from '../../src/batches/sql-batch-store';
import type { EncryptionKey } from '../../src/temporal/payload-codec';
import type { WebhookEndpointStore } from '../../src/merchant-events/endpoint-store';
import type { MerchantEventType } from '../../src/merchant-events/merchant-event';
import { openWebhookEndpointStore } from '../../src/merchant-events/open-endpoint-store';
import type { SignatureScheme } from '../../src/merchant-events/merchant-webhook-signature';
import { endpointSchema } from '../../src/merchant-events/endpoint-schema';
import { freePort } from '../../src/net/free-port';
import {
  SqliteWebhookEndpointStore,
  SUBSCRIBED_TO_SQL,
  webhookEndpointStorePath,
} from '../../src/merchant-events/sql-endpoint-store';
import {
  describeOnPostgres,
  dialectsUnderTest,
  testOnPostgres,
  onDatabase,
  postgresForThisFile,
} from '../helpers/postgres';

const KEY: EncryptionKey = { id: 'endpoints-test-key', key: randomBytes(32) };

interface Keys {
  active?: EncryptionKey;
  previous?: EncryptionKey[];
}

/** One implementation, seen from the tests: where a test's stores live, the configuration that opens them there, how to look under it. */
interface StoreKind {
  name: string;
  fresh(): Promise<string>;
  config(location: string): { DATA_DIR: string; DATABASE_URL?: string };
  /** Every byte the store keeps, as an attacker reading the storage would see them. */
  storedBytes(location: string): Promise<Buffer>;
  /** Runs SQL (`?` for the one parameter) on the storage beside the store, as an attacker who can write it would. */
  execute(location: string, sql: string, parameter: string): Promise<void>;
}

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'endpoint-store-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const sqlite: StoreKind = {
  name: 'SQLite',
  fresh: () => Promise.resolve(tempDir()),
  config: (dataDir) => ({ DATA_DIR: dataDir }),
  storedBytes(dataDir) {
    const file = webhookEndpointStorePath(dataDir);
    return Promise.resolve(
      Buffer.concat([file, `${file}-wal`].filter((name) => existsSync(name)).map((name) => readFileSync(name))),
    );
  },
  execute(dataDir, sql, parameter) {
    const db = new Database(webhookEndpointStorePath(dataDir));
    try {
      db.prepare(sql).run(parameter);
      return Promise.resolve();
    } finally {
      db.close();
    }
  },
};

const freshDatabase = postgresForThisFile();

const postgres: StoreKind = {
  name: 'PostgreSQL',
  fresh: freshDatabase,
  config: (url) => ({ DATA_DIR: tempDir(), DATABASE_URL: url }),
  storedBytes: (url) =>
    onDatabase(url, async (client) => {
      const rows: string[] = [];
      // One query at a time: a client runs its queries in turn.
      for (const table of ['webhook_endpoints', 'webhook_endpoint_events', 'webhook_endpoint_secrets']) {
        rows.push(
          ...(await client.query<{ row: string }>(`SELECT t::text AS row FROM ${table} t`)).rows.map((row) => row.row),
        );
      }
      return Buffer.from(rows.join('\n'));
    }),
  execute: (url, sql, parameter) =>
    onDatabase(url, async (client) => void (await client.query(sql.replace('?', '$1'), [parameter]))),
};

const asConfigKey = (key: EncryptionKey) => `${key.id}:${key.key.toString('base64')}`;

const endpointId = (n: number) => `we_${n.toString(16).padStart(24, '0')}`;
const T0 = new Date('2026-11-23T12:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

describe.each(dialectsUnderTest([sqlite, postgres]))('$name webhook endpoint store', (kind) => {
  let location: string;
  const stores: WebhookEndpointStore[] = [];

  async function openStore(keys: Keys = {}): Promise<WebhookEndpointStore> {
    const active = keys.active ?? KEY;
    const store = await openWebhookEndpointStore({
      ...kind.config(location),
      PAYLOAD_ENCRYPTION_KEY: active.key.toString('base64'),
      PAYLOAD_ENCRYPTION_KEY_ID: active.id,
      PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: (keys.previous ?? []).map(asConfigKey),
    });
    stores.push(store);
    return store;
  }

  beforeEach(async () => {
    location = await kind.fresh();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  const create = (
    store: WebhookEndpointStore,
    n: number,
    overrides: {
      events?: MerchantEventType[];
      createdAt?: Date;
      secret?: string;
      signatureScheme?: SignatureScheme;
    } = {},
  ) =>
    store.create({
      id: endpointId(n),
      url: `https://merchant.example.com/hooks/${n}`,
      events: overrides.events ?? ['payout.completed'],
      signatureScheme: overrides.signatureScheme ?? 'standard-webhooks',
      secret: overrides.secret ?? `whsec_${n}_${randomBytes(16).toString('hex')}`,
      createdAt: overrides.createdAt ?? minutes(n),
    });

  test('creates, gets and lists endpoints oldest first (then by id), their events de-duplicated in a stable order, with no secret', async () => {
    const store = await openStore();
    const created = await create(store, 2, {
      events: ['payout.failed', 'charge.paid', 'payout.completed', 'payout.failed'],
      createdAt: minutes(5),
      secret: 'whsec_two',
    });
    expect(created).toEqual({
      id: endpointId(2),
      url: 'https://merchant.example.com/hooks/2',
      events: ['payout.completed', 'payout.failed', 'charge.paid'],
      signatureScheme: 'standard-webhooks',
      createdAt: '2026-11-23T12:05:00.000Z',
    });
    expect(await create(store, 4, { signatureScheme: 'legacy' })).toMatchObject({ signatureScheme: 'legacy' });
    await create(store, 3, { createdAt: minutes(1) });
    await create(store, 1, { createdAt: minutes(5) });

    expect(await store.get(endpointId(2))).toEqual(created);
    expect(await store.get(endpointId(9))).toBeUndefined();
    expect((await store.list()).map((endpoint) => endpoint.id)).toEqual([
      endpointId(3),
      endpointId(4),
      endpointId(1),
      endpointId(2),
    ]);
    expect(JSON.stringify(await store.list())).not.toContain('whsec_');
  });

  test('refuses an endpoint without events, with an unknown event type, or with a malformed id', async () => {
    const store = await openStore();
    await expect(create(store, 1, { events: [] })).rejects.toThrow(/at least one event type/);
    // What the API would never let through: the store checks it again.
    await expect(create(store, 1, { events: ['payout.exploded' as MerchantEventType] })).rejects.toThrow();
    await expect(
      store.create({
        id: 'we_nothex',
        url: 'https://x.example.com',
        events: ['payout.completed'],
        signatureScheme: 'standard-webhooks',
        secret: 's',
        createdAt: T0,
      }),
    ).rejects.toThrow(/webhook endpoint id/);
    expect(await store.list()).toEqual([]);
  });

  test('an id is taken once: a second create under it fails and leaves the first as it was', async () => {
    const store = await openStore();
    const first = await create(store, 1, { secret: 'whsec_first' });
    await expect(create(store, 1, { events: ['charge.paid'], secret: 'whsec_second' })).rejects.toThrow();
    expect(await store.list()).toEqual([first]);
    expect(await store.subscribedTo('charge.paid')).toEqual([]);
    expect(await store.secretsOf(endpointId(1), T0)).toEqual({ current: 'whsec_first' });
  });

  test('subscribedTo answers the endpoints subscribed to the type, oldest first', async () => {
    const store = await openStore();
    await create(store, 1, { events: ['payout.completed', 'payout.failed'] });
    await create(store, 2, { events: ['charge.paid'] });
    await create(store, 3, { events: ['payout.failed'], createdAt: minutes(-1) });

    expect((await store.subscribedTo('payout.failed')).map((endpoint) => endpoint.id)).toEqual([
      endpointId(3),
      endpointId(1),
    ]);
    expect(await store.subscribedTo('charge.paid')).toEqual([await store.get(endpointId(2))]);
    expect(await store.subscribedTo('infraction.accepted')).toEqual([]);
  });

  test('delete removes the endpoint, its subscriptions and its secrets; a second delete answers false', async () => {
    const store = await openStore();
    await create(store, 1, { events: ['payout.completed'] });
    await create(store, 2, { events: ['payout.completed'] });

    expect(await store.delete(endpointId(1))).toBe(true);
    expect(await store.delete(endpointId(1))).toBe(false);
    expect(await store.get(endpointId(1))).toBeUndefined();
    expect(await store.secretsOf(endpointId(1), T0)).toBeUndefined();
    expect((await store.subscribedTo('payout.completed')).map((endpoint) => endpoint.id)).toEqual([endpointId(2)]);
    expect(
      await store.rotateSecret(endpointId(1), { secret: 'whsec_new', previousValidUntil: minutes(60), now: T0 }),
    ).toBeUndefined();
  });

  test('a rotated secret signs at once; the retired one signs too until previousValidUntil, and a second rotation retires the secret it replaces', async () => {
    const store = await openStore();
    await create(store, 1, { secret: 'whsec_one' });
    expect(await store.secretsOf(endpointId(1), T0)).toEqual({ current: 'whsec_one' });

    const rotated = await store.rotateSecret(endpointId(1), {
      secret: 'whsec_two',
      previousValidUntil: minutes(60),
      now: minutes(1),
    });
    expect(rotated).toMatchObject({ id: endpointId(1), secretRotatedAt: minutes(1).toISOString() });
    expect(await store.get(endpointId(1))).toEqual(rotated);
    expect(await store.secretsOf(endpointId(1), minutes(1))).toEqual({ current: 'whsec_two', previous: 'whsec_one' });
    expect(await store.secretsOf(endpointId(1), minutes(59))).toEqual({ current: 'whsec_two', previous: 'whsec_one' });
    expect(await store.secretsOf(endpointId(1), minutes(60))).toEqual({ current: 'whsec_two' });

    // whsec_one is still valid here, but only the secret being retired stays.
    await store.rotateSecret(endpointId(1), {
      secret: 'whsec_three',
      previousValidUntil: minutes(30),
      now: minutes(10),
    });
    expect(await store.secretsOf(endpointId(1), minutes(10))).toEqual({
      current: 'whsec_three',
      previous: 'whsec_two',
    });
    expect(await store.secretsOf(endpointId(1), minutes(30))).toEqual({ current: 'whsec_three' });
    expect((await store.get(endpointId(1)))?.secretRotatedAt).toBe(minutes(10).toISOString());

    const everything = [
      await store.list(),
      await store.get(endpointId(1)),
      await store.subscribedTo('payout.completed'),
      rotated,
    ];
    expect(JSON.stringify(everything)).not.toMatch(/whsec_/);
  });

  test('rotating an endpoint whose secret row is gone answers not found, never a rotation that stored no secret', async () => {
    const store = await openStore();
    await create(store, 1);
    await kind.execute(location, 'DELETE FROM webhook_endpoint_secrets WHERE endpoint_id = ?', endpointId(1));
    expect(
      await store.rotateSecret(endpointId(1), { secret: 'whsec_new', previousValidUntil: minutes(60), now: T0 }),
    ).toBeUndefined();
    expect(await store.get(endpointId(1))).not.toHaveProperty('secretRotatedAt');
  });

  test('a closed store refuses every call: its connection is let go', async () => {
    const store = await openStore();
    await create(store, 1);
    await store.close();
    await expect(store.get(endpointId(1))).rejects.toThrow();
    await expect(store.subscribedTo('payout.completed')).rejects.toThrow();
  });

  test('secrets are sealed at rest: neither the current nor the previous one is in the stored bytes', async () => {
    const store = await openStore();
    await create(store, 1, { secret: 'whsec_plain_current_secret_1' });
    await store.rotateSecret(endpointId(1), {
      secret: 'whsec_plain_current_secret_2',
      previousValidUntil: minutes(60),
      now: T0,
    });
    await store.close();

    const bytes = await kind.storedBytes(location);
    expect(bytes.includes(Buffer.from('whsec_plain_current_secret'))).toBe(false);
    expect(bytes.includes(Buffer.from('merchant.example.com/hooks/1'))).toBe(true); // the search above could find text
  });

  test('endpoints and their secrets survive reopening the store', async () => {
    const first = await openStore();
    const created = await create(first, 1, { secret: 'whsec_kept', events: ['charge.refunded'] });
    await first.close();

    const reopened = await openStore();
    expect(await reopened.list()).toEqual([created]);
    expect(await reopened.subscribedTo('charge.refunded')).toEqual([created]);
    expect(await reopened.secretsOf(endpointId(1), T0)).toEqual({ current: 'whsec_kept' });
  });

  test('two stores on the same storage (the API and the worker) see each other’s writes', async () => {
    const api = await openStore();
    const worker = await openStore();
    await create(api, 1, { secret: 'whsec_shared', events: ['payout.failed'] });
    expect((await worker.subscribedTo('payout.failed')).map((endpoint) => endpoint.id)).toEqual([endpointId(1)]);
    expect(await worker.secretsOf(endpointId(1), T0)).toEqual({ current: 'whsec_shared' });

    await api.rotateSecret(endpointId(1), { secret: 'whsec_rotated', previousValidUntil: minutes(60), now: T0 });
    expect(await worker.secretsOf(endpointId(1), T0)).toEqual({ current: 'whsec_rotated', previous: 'whsec_shared' });
    expect(await worker.delete(endpointId(1))).toBe(true);
    expect(await api.get(endpointId(1))).toBeUndefined();
  });

  test('after a payload key rotation, secrets sealed with the previous key still open, and new secrets need only the new key', async () => {
    await create(await openStore(), 1, { secret: 'whsec_old_key' });
    const rotatedKey = { id: 'rotated-key', key: randomBytes(32) };

    const afterKeyRotation = await openStore({ active: rotatedKey, previous: [KEY] });
    expect(await afterKeyRotation.secretsOf(endpointId(1), T0)).toEqual({ current: 'whsec_old_key' });
    await afterKeyRotation.rotateSecret(endpointId(1), {
      secret: 'whsec_new_key',
      previousValidUntil: minutes(60),
      now: T0,
    });
    expect(await afterKeyRotation.secretsOf(endpointId(1), T0)).toEqual({
      current: 'whsec_new_key',
      previous: 'whsec_old_key',
    });

    // Once the retired secret expired, the old payload key is no longer needed to sign.
    const newKeyOnly = await openStore({ active: rotatedKey });
    expect(await newKeyOnly.secretsOf(endpointId(1), minutes(60))).toEqual({ current: 'whsec_new_key' });
    await expect(newKeyOnly.secretsOf(endpointId(1), T0)).rejects.toThrow(/need the key endpoints-test-key/);
  });

  test('a store with another key under the same key id cannot open the secrets', async () => {
    await create(await openStore(), 1, { secret: 'whsec_one' });
    const otherKey = await openStore({ active: { id: KEY.id, key: randomBytes(32) } });
    await expect(otherKey.secretsOf(endpointId(1), T0)).rejects.toThrow();
  });

  test('a sealed secret copied onto another endpoint does not open: it is sealed under its endpoint id', async () => {
    const store = await openStore();
    await create(store, 1, { secret: 'whsec_one' });
    await create(store, 2, { secret: 'whsec_two' });
    await kind.execute(
      location,
      `UPDATE webhook_endpoint_secrets SET sealed = (SELECT sealed FROM webhook_endpoint_secrets WHERE endpoint_id = '${endpointId(1)}') WHERE endpoint_id = ?`,
      endpointId(2),
    );
    expect(await store.secretsOf(endpointId(1), T0)).toEqual({ current: 'whsec_one' });
    await expect(store.secretsOf(endpointId(2), T0)).rejects.toThrow();
  });
});

describe('SQLite webhook endpoint store file', () => {
  test('finding the endpoints subscribed to a type is an index search that reads no secret', async () => {
    const dataDir = tempDir();
    await new SqliteWebhookEndpointStore({ file: webhookEndpointStorePath(dataDir), encryptionKey: KEY }).close();
    const db = new Database(webhookEndpointStorePath(dataDir), { readonly: true });
    try {
      const plan = db
        .prepare<[string], { detail: string }>(`EXPLAIN QUERY PLAN ${SUBSCRIBED_TO_SQL.replace('$1', '?')}`)
        .all('payout.completed')
        .map((row) => row.detail);
      expect(plan.join('\n')).toMatch(/SEARCH s USING PRIMARY KEY \(event_type=\?\)/);
      expect(plan.join('\n')).toMatch(/SEARCH e USING PRIMARY KEY \(id=\?\)/);
      expect(plan.join('\n')).not.toMatch(/webhook_endpoint_secrets/);
    } finally {
      db.close();
    }
  });
});

describeOnPostgres('PostgreSQL webhook endpoint store beside the batch store', () => {
  test('both open on one database (DATABASE_URL), each with its own tables and migrations', async () => {
    const url = await freshDatabase();
    const batches = await PgBatchStore.open({ connectionString: url, encryptionKey: KEY });
    const config = {
      DATA_DIR: tempDir(),
      DATABASE_URL: url,
      PAYLOAD_ENCRYPTION_KEY: KEY.key.toString('base64'),
      PAYLOAD_ENCRYPTION_KEY_ID: KEY.id,
    };
    const endpoints = await openWebhookEndpointStore(config);
    try {
      expect(await endpoints.list()).toEqual([]);
      expect(await batches.summary('none')).toBeUndefined();
      const applied = await onDatabase(url, async (client) =>
        (await client.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id')).rows.map((row) => row.id),
      );
      expect(applied).toEqual([
        ...batchSchema(postgresDialect.schema).map((migration) => migration.id),
        'webhooks/001-endpoints',
        'webhooks/002-signature-scheme',
      ]);
      // Opening again (the other process) applies nothing twice.
      await (await openWebhookEndpointStore(config)).close();
    } finally {
      await Promise.all([batches.close(), endpoints.close()]);
    }
  });
});

describe('webhook endpoint store under DATABASE_URL', () => {
  // Runs where PostgreSQL does not (the mutation suites): a server that is down still shows where the store goes.
  test('opens on that server, not in a SQLite file under DATA_DIR: with the server down, opening fails naming its address', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    await expect(
      openWebhookEndpointStore({
        DATA_DIR: dataDir,
        DATABASE_URL: `postgres://engine@127.0.0.1:${port}/engine`,
        PAYLOAD_ENCRYPTION_KEY: KEY.key.toString('base64'),
        PAYLOAD_ENCRYPTION_KEY_ID: KEY.id,
      }),
    ).rejects.toThrow(`127.0.0.1:${port}`);
    expect(existsSync(webhookEndpointStorePath(dataDir))).toBe(false);
  });
});

describe('endpoints registered before Standard Webhooks', () => {
  const OLD_ROW = `INSERT INTO webhook_endpoints (id, url, events, created_at) VALUES ('${endpointId(1)}', 'https://merchant.example.com/hooks', '["payout.completed"]', `;

  test('SQLite: the upgrade keeps them on the legacy scheme their receivers verify', async () => {
    const dataDir = tempDir();
    const db = new Database(webhookEndpointStorePath(dataDir));
    applyMigrations(db, endpointSchema(sqliteDialect.schema).slice(0, 1));
    db.exec(`${OLD_ROW}${T0.getTime()})`);
    db.close();
    const store = new SqliteWebhookEndpointStore({ file: webhookEndpointStorePath(dataDir), encryptionKey: KEY });
    try {
      expect(await store.get(endpointId(1))).toMatchObject({ id: endpointId(1), signatureScheme: 'legacy' });
    } finally {
      await store.close();
    }
  });

  testOnPostgres('PostgreSQL: the upgrade keeps them on the legacy scheme their receivers verify', async () => {
    const url = await freshDatabase();
    const pool = new Pool({ connectionString: url });
    try {
      await applyPgMigrations(pool, endpointSchema(postgresDialect.schema).slice(0, 1));
      await pool.query(`${OLD_ROW}'${T0.toISOString()}')`);
    } finally {
      await pool.end();
    }
    const store = await openWebhookEndpointStore({
      DATA_DIR: tempDir(),
      DATABASE_URL: url,
      PAYLOAD_ENCRYPTION_KEY: KEY.key.toString('base64'),
      PAYLOAD_ENCRYPTION_KEY_ID: KEY.id,
    });
    try {
      expect(await store.get(endpointId(1))).toMatchObject({ id: endpointId(1), signatureScheme: 'legacy' });
    } finally {
      await store.close();
    }
  });
});
