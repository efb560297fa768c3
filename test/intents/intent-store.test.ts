/**
 * The intent store in both dialects, on the batch store's own database (SQLite file, and a real
 * PostgreSQL server started for this file): a claim is held by one run; the same run finds its own claim
 * (a retry); another run finds it claimed earlier, whatever it became, unless the provider refused it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { openBatchStore } from '../../src/batches/open-batch-store';
import { RELEASED_PG_BATCH_MIGRATIONS, RELEASED_SQLITE_BATCH_MIGRATIONS } from '../fixtures/released-batch-migrations';
import { applyPgMigrations } from '../../src/db/postgres';
import { applyMigrations, openSqlite } from '../../src/db/sqlite';
import { pgIntentStore, sqliteIntentStore } from '../../src/intents/sql-intent-store';
import type { IntentKey, IntentStore } from '../../src/intents/intent-store';
import { dialectsUnderTest, testOnPostgres, postgresForThisFile } from '../helpers/postgres';
import { testConfig } from '../helpers/temporal';

const freshDatabase = postgresForThisFile();
const KEYS = { active: { id: 'k1', key: randomBytes(32) }, previous: [] };
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** The intent store opened beside a batch store on the same database, as the engine opens them. */
const dialects: {
  name: string;
  /** `raw`: a statement run on the database itself, past the store (what someone with the database's access could do). */
  open: () => Promise<{
    intents: IntentStore;
    also: () => Promise<IntentStore>;
    raw: (sql: string) => Promise<Record<string, unknown>[]>;
    close: () => Promise<void>;
  }>;
}[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'intents-'));
      folders.push(dir);
      const batches = await openBatchStore(testConfig({ DATA_DIR: dir }));
      const intents = sqliteIntentStore(path.join(dir, 'batches.sqlite'), KEYS);
      const opened: IntentStore[] = [intents];
      const direct = openSqlite(path.join(dir, 'batches.sqlite'), { busyTimeoutMs: 5_000 });
      return {
        intents,
        also: () =>
          Promise.resolve(
            opened[opened.push(sqliteIntentStore(path.join(dir, 'batches.sqlite'), KEYS)) - 1] as IntentStore,
          ),
        raw: (sql) => {
          const statement = direct.prepare(sql);
          return Promise.resolve(
            statement.reader ? (statement.all() as Record<string, unknown>[]) : (statement.run(), []),
          );
        },
        close: async () => {
          direct.close();
          await Promise.all(opened.map((store) => store.close()));
          await batches.close();
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const url = await freshDatabase();
      const batches = await openBatchStore(testConfig({ DATABASE_URL: url }));
      const intents = await pgIntentStore(url, KEYS);
      const opened: IntentStore[] = [intents];
      const direct = new Pool({ connectionString: url, max: 1 });
      return {
        intents,
        also: async () => opened[opened.push(await pgIntentStore(url, KEYS)) - 1] as IntentStore,
        raw: async (sql) => (await direct.query(sql)).rows as Record<string, unknown>[],
        close: async () => {
          await direct.end();
          await Promise.all(opened.map((store) => store.close()));
          await batches.close();
        },
      };
    },
  },
];

describe.each(dialectsUnderTest(dialects))('$name intent store', ({ open }) => {
  let db: Awaited<ReturnType<(typeof dialects)[number]['open']>>;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(() => db.close());
  const key: IntentKey = { businessId: 'order-1', kind: 'payout-submission' };

  test('the first run claims; a retry of that run finds its own claim; another run finds it claimed earlier, with what it became', async () => {
    expect(await db.intents.find(key)).toBeUndefined();
    expect(await db.intents.claim(key, 'run-a')).toMatchObject({
      by: 'this-run',
      intent: { businessId: 'order-1', kind: 'payout-submission', runId: 'run-a', state: 'CLAIMED' },
    });
    expect(await db.intents.claim(key, 'run-a')).toMatchObject({
      by: 'this-run',
      fresh: false,
      intent: { runId: 'run-a', state: 'CLAIMED' },
    });
    await db.intents.record(key, 'run-a', { state: 'SENT', providerId: 'tx-1' });
    const earlier = await db.intents.claim(key, 'run-b');
    expect(earlier).toMatchObject({ by: 'earlier-run', intent: { runId: 'run-a', state: 'SENT', providerId: 'tx-1' } });
    // A run that does not hold the intent writes nothing.
    await db.intents.record(key, 'run-b', { state: 'REFUSED' });
    expect(await db.intents.find(key)).toMatchObject({ runId: 'run-a', state: 'SENT', providerId: 'tx-1' });
    // What a re-run needs of the answer is kept beside it.
    const charge: IntentKey = { businessId: 'order-1', kind: 'charge-creation' };
    await db.intents.claim(charge, 'run-a');
    await db.intents.record(charge, 'run-a', { state: 'SENT', answer: '{"qrcode":"000201"}' });
    expect(await db.intents.claim(charge, 'run-b')).toMatchObject({
      by: 'earlier-run',
      intent: { state: 'SENT', answer: '{"qrcode":"000201"}' },
    });
    // Other kinds of the same business id are other intents.
    expect(await db.intents.claim({ businessId: 'order-1', kind: 'defense-submission' }, 'run-b')).toMatchObject({
      by: 'this-run',
      fresh: true,
    });
    expect(await db.intents.claim({ businessId: 'order-1', kind: 'card-authorization' }, 'checkout:1')).toMatchObject({
      by: 'this-run',
      fresh: true,
    });
  });

  test('an intent the provider refused (nothing moved) is taken over by the next run; an unknown one is not', async () => {
    await db.intents.claim(key, 'run-a');
    await db.intents.record(key, 'run-a', { state: 'REFUSED' });
    expect(await db.intents.claim(key, 'run-b')).toMatchObject({
      by: 'this-run',
      intent: { runId: 'run-b', state: 'CLAIMED' },
    });
    await db.intents.record(key, 'run-b', { state: 'UNKNOWN' });
    expect(await db.intents.claim(key, 'run-c')).toMatchObject({
      by: 'earlier-run',
      intent: { runId: 'run-b', state: 'UNKNOWN' },
    });
  });

  test('a claimed intent notes what is about to be sent; a later run takes over only the claim it saw, once', async () => {
    const charge: IntentKey = { businessId: 'charge-1', kind: 'charge-creation' };
    await db.intents.claim(charge, 'run-a');
    await db.intents.record(charge, 'run-a', { state: 'CLAIMED', answer: '{"reference":"_r2_charge-1"}' });
    expect(await db.intents.claim(charge, 'run-a')).toMatchObject({
      by: 'this-run',
      fresh: false,
      intent: { state: 'CLAIMED', answer: '{"reference":"_r2_charge-1"}' },
    });
    // Two runs that saw run-a's claim: one moves it, the other finds it moved.
    const moves = await Promise.all([
      db.intents.takeOver(charge, 'run-a', 'run-b', '{"reference":"_r3_charge-1"}'),
      db.intents.takeOver(charge, 'run-a', 'run-c'),
    ]);
    expect(moves.filter(Boolean)).toHaveLength(1);
    const holder = (await db.intents.find(charge))?.runId;
    expect(['run-b', 'run-c']).toContain(holder);
    // Run-a's late answer writes nothing; an intent whose holder recorded its outcome is not taken over.
    await db.intents.record(charge, 'run-a', { state: 'SENT', answer: '{"qrcode":"lost"}' });
    expect(await db.intents.find(charge)).toMatchObject({ runId: holder, state: 'CLAIMED' });
    await db.intents.record(charge, holder ?? '', { state: 'SENT', answer: '{"qrcode":"000201"}' });
    expect(await db.intents.takeOver(charge, holder ?? '', 'run-d')).toBe(false);
    expect(await db.intents.find(charge)).toMatchObject({
      runId: holder,
      state: 'SENT',
      answer: '{"qrcode":"000201"}',
    });
  });

  test('answers are sealed with their row: in the database no code in clear; copied onto another business id, or altered, refused and never passed on; one written in clear before sealing still reads, marked', async () => {
    const charge = (businessId: string): IntentKey => ({ businessId, kind: 'charge-creation' });
    for (const businessId of ['charge-a', 'charge-b']) {
      await db.intents.claim(charge(businessId), 'run-a');
      await db.intents.record(charge(businessId), 'run-a', {
        state: 'SENT',
        answer: `{"qrcode":"code-of-${businessId}"}`,
      });
    }
    const opened = await db.intents.find(charge('charge-a'));
    expect(opened).toMatchObject({ state: 'SENT', answer: '{"qrcode":"code-of-charge-a"}' });
    expect(opened).not.toHaveProperty('answerUnsealed');
    const rows = await db.raw(
      "SELECT business_id, answer FROM money_intents WHERE kind = 'charge-creation' ORDER BY business_id",
    );
    expect(rows.map((row) => row.business_id)).toEqual(['charge-a', 'charge-b']);
    for (const row of rows) {
      expect(row.answer).toMatch(/^sealed:k1:[\w-]+$/);
      expect(String(row.answer)).not.toContain('code-of');
    }

    // charge-b's sealed answer moved onto charge-a: it does not open there, and the answer is not passed on.
    await db.raw(
      `UPDATE money_intents SET answer = '${String(rows[1]?.answer)}' WHERE business_id = 'charge-a' AND kind = 'charge-creation'`,
    );
    const moved = await db.intents.find(charge('charge-a'));
    expect(moved).toMatchObject({ state: 'SENT', answerRefused: expect.stringContaining('does not open') });
    expect(moved).not.toHaveProperty('answer');
    expect(await db.intents.claim(charge('charge-a'), 'run-b')).toMatchObject({
      by: 'earlier-run',
      intent: { answerRefused: expect.any(String) },
    });
    // Nor onto another kind of the same business id.
    await db.intents.claim({ businessId: 'charge-b', kind: 'card-authorization' }, 'checkout:1');
    await db.raw(
      `UPDATE money_intents SET answer = '${String(rows[1]?.answer)}' WHERE business_id = 'charge-b' AND kind = 'card-authorization'`,
    );
    expect(await db.intents.find({ businessId: 'charge-b', kind: 'card-authorization' })).toMatchObject({
      answerRefused: expect.any(String),
    });

    // One character of charge-b's own sealed answer altered: refused.
    const sealed = String(rows[1]?.answer);
    const at = sealed.length - 30;
    const altered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    await db.raw(
      `UPDATE money_intents SET answer = '${altered}' WHERE business_id = 'charge-b' AND kind = 'charge-creation'`,
    );
    expect(await db.intents.find(charge('charge-b'))).toMatchObject({ answerRefused: expect.any(String) });
    expect(await db.intents.find(charge('charge-b'))).not.toHaveProperty('answer');

    // A row written in clear before answers were sealed reads as it was, marked so; written again, it is sealed.
    await db.raw(
      `UPDATE money_intents SET answer = '{"reference":"_r2_charge-a"}', state = 'CLAIMED' WHERE business_id = 'charge-a' AND kind = 'charge-creation'`,
    );
    expect(await db.intents.find(charge('charge-a'))).toMatchObject({
      answer: '{"reference":"_r2_charge-a"}',
      answerUnsealed: true,
    });
    await db.intents.record(charge('charge-a'), 'run-a', { state: 'SENT', answer: '{"qrcode":"code-of-charge-a"}' });
    expect(await db.intents.find(charge('charge-a'))).toMatchObject({ answer: '{"qrcode":"code-of-charge-a"}' });
    expect(await db.intents.find(charge('charge-a'))).not.toHaveProperty('answerUnsealed');
  });

  test("a callback's provider id finds the business id the provider answered with it, of that kind only; an id never answered finds none", async () => {
    await db.intents.claim(key, 'run-a');
    expect(await db.intents.businessIdOfProviderId('payout-submission', 'tx-9')).toBeUndefined();
    await db.intents.record(key, 'run-a', { state: 'SENT', providerId: 'tx-9' });
    expect(await db.intents.businessIdOfProviderId('payout-submission', 'tx-9')).toBe('order-1');
    expect(await db.intents.businessIdOfProviderId('charge-creation', 'tx-9')).toBeUndefined();
    expect(await db.intents.businessIdOfProviderId('payout-submission', 'tx-1')).toBeUndefined();
  });

  test('of many runs claiming one key at once through several connections, exactly one holds it', async () => {
    const stores = [db.intents, await db.also(), await db.also()];
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (stores[i % stores.length] as IntentStore).claim(
          { businessId: 'race', kind: 'defense-submission' },
          `run-${i}`,
        ),
      ),
    );
    const holders = claims.filter((claim) => claim.by === 'this-run');
    expect(holders).toHaveLength(1);
    const holder = holders[0]?.intent.runId;
    expect(claims.every((claim) => claim.intent.runId === holder)).toBe(true);
  });
});

describe('a database that holds intents from before the card-authorization kind', () => {
  const CARD_KIND = (migration: { id: string }) => !migration.id.endsWith('-card-authorization-intents');
  const before =
    "INSERT INTO money_intents (business_id, kind, run_id, state, provider_id, answer, claimed_at, updated_at) VALUES ('order-9', 'payout-submission', 'run-a', 'SENT', 'tx-9', NULL, 1, 1)";
  const kept = { businessId: 'order-9', kind: 'payout-submission', runId: 'run-a', state: 'SENT', providerId: 'tx-9' };

  test('SQLite: the migration keeps every intent, and takes the new kind', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'intents-'));
    folders.push(dir);
    const file = path.join(dir, 'batches.sqlite');
    const old = openSqlite(file, { busyTimeoutMs: 1_000 });
    applyMigrations(old, RELEASED_SQLITE_BATCH_MIGRATIONS.filter(CARD_KIND));
    old.exec(before);
    old.close();
    const intents = sqliteIntentStore(file, KEYS);
    expect(await intents.find({ businessId: 'order-9', kind: 'payout-submission' })).toMatchObject(kept);
    expect(await intents.claim({ businessId: 'order-9', kind: 'card-authorization' }, 'checkout:1')).toMatchObject({
      by: 'this-run',
      fresh: true,
    });
    await intents.close();
  });

  testOnPostgres('PostgreSQL: the migration keeps every intent, and takes the new kind', async () => {
    const url = await freshDatabase();
    const pool = new Pool({ connectionString: url });
    await applyPgMigrations(pool, RELEASED_PG_BATCH_MIGRATIONS.filter(CARD_KIND));
    await pool.query(before.replace('1, 1)', 'now(), now())'));
    await pool.end();
    const intents = await pgIntentStore(url, KEYS);
    expect(await intents.find({ businessId: 'order-9', kind: 'payout-submission' })).toMatchObject(kept);
    expect(await intents.claim({ businessId: 'order-9', kind: 'card-authorization' }, 'checkout:1')).toMatchObject({
      by: 'this-run',
      fresh: true,
    });
    await intents.close();
  });
});
