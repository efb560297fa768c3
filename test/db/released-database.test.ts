/**
 * An engine database made by the release before each module had its own migrations (one list: batches,
 * money_intents, the read model) opens with today's stores: nothing applied twice, nothing lost, every store
 * writing again. SQLite (a file) and PostgreSQL (a database on the server this file starts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { PgBatchStore, SqliteBatchStore } from '../../src/batches/sql-batch-store';
import type { BatchStore } from '../../src/batches/batch-store';
import { batchRequestHash } from '../../src/batches/batch-request';
import { engineDatabasePath } from '../../src/db/database';
import { applyPgMigrations } from '../../src/db/postgres';
import { applyMigrations, openSqlite } from '../../src/db/sqlite';
import type { IntentStore } from '../../src/intents/intent-store';
import { pgIntentStore, sqliteIntentStore } from '../../src/intents/sql-intent-store';
import type { ReadModel } from '../../src/read-model/read-model';
import { pgReadModel, sqliteReadModel } from '../../src/read-model/sql-read-model';
import { payoutRequests, TEST_KEY } from '../batches/fixtures';
import { RELEASED_PG_BATCH_MIGRATIONS, RELEASED_SQLITE_BATCH_MIGRATIONS } from '../fixtures/released-batch-migrations';
import { onDatabase, postgresForThisFile } from '../helpers/postgres';

const KEYS = { active: TEST_KEY, previous: [] };
const folders: string[] = [];
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const freshDatabase = postgresForThisFile();

/** Rows the released code wrote: a payout id, an intent, an announced event. */
const RELEASED_ROWS = (time: string) => [
  "INSERT INTO payout_ids (external_id, batch_id) VALUES ('order-1', NULL)",
  `INSERT INTO money_intents (business_id, kind, run_id, state, provider_id, answer, claimed_at, updated_at) VALUES ('order-1', 'payout-submission', 'run-a', 'SENT', 'tx-1', NULL, ${time}, ${time})`,
  `INSERT INTO operation_events (event_id, source_id, seq, type, occurred_at, data) VALUES ('evt-1', 'payout:order-1', 1, 'payout.completed', ${time}, '{"id":"order-1"}')`,
];

interface Opened {
  batches: BatchStore;
  intents: IntentStore;
  readModel: ReadModel;
  recorded: () => Promise<string[]>;
}

async function thenEveryStoreWorks(opened: Opened, releasedIds: readonly string[]): Promise<void> {
  const { batches, intents, readModel } = opened;
  try {
    expect(await batches.payoutOwner('order-1')).toEqual({ batchId: null });
    expect(await intents.find({ businessId: 'order-1', kind: 'payout-submission' })).toMatchObject({
      runId: 'run-a',
      state: 'SENT',
      providerId: 'tx-1',
    });
    expect(await readModel.eventsOf('payout:order-1')).toHaveLength(1);
    // Writing again, in each module's tables.
    const items = payoutRequests(2, 'after');
    const batch = { batchId: 'after-upgrade', requestHash: batchRequestHash(items), items, createdAt: new Date() };
    expect(await batches.createBatch(batch)).toEqual({ outcome: 'created' });
    expect(await batches.summary('after-upgrade')).toMatchObject({ total: 2 });
    expect(await intents.claim({ businessId: 'checkout-1', kind: 'card-authorization' }, 'run-b')).toMatchObject({
      by: 'this-run',
      fresh: true,
    });
    // What the release recorded stays recorded; nothing of it ran again under a new name.
    const recorded = await opened.recorded();
    expect(recorded).toEqual(expect.arrayContaining([...releasedIds]));
  } finally {
    await Promise.all([batches.close(), intents.close(), readModel.close()]);
  }
}

test('SQLite: a file made by the released migrations opens with every store, its rows kept', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'released-db-'));
  folders.push(dir);
  const file = engineDatabasePath(dir);
  const released = openSqlite(file, { busyTimeoutMs: 1_000 });
  applyMigrations(released, RELEASED_SQLITE_BATCH_MIGRATIONS);
  for (const statement of RELEASED_ROWS('1700000000000')) released.exec(statement);
  released.close();

  const batches = new SqliteBatchStore({ file, encryptionKey: TEST_KEY });
  const intents = sqliteIntentStore(file, KEYS);
  const readModel = sqliteReadModel(file);
  const recorded = () => {
    const db = openSqlite(file, { busyTimeoutMs: 1_000 });
    try {
      return Promise.resolve(
        db
          .prepare<[], { id: string }>('SELECT id FROM schema_migrations')
          .all()
          .map((row) => row.id),
      );
    } finally {
      db.close();
    }
  };
  await thenEveryStoreWorks(
    { batches, intents, readModel, recorded },
    RELEASED_SQLITE_BATCH_MIGRATIONS.map((migration) => migration.id),
  );
});

test('PostgreSQL: a database made by the released migrations opens with every store, its rows kept', async () => {
  const url = await freshDatabase();
  const pool = new Pool({ connectionString: url });
  try {
    await applyPgMigrations(pool, RELEASED_PG_BATCH_MIGRATIONS);
    for (const statement of RELEASED_ROWS('now()')) await pool.query(statement);
  } finally {
    await pool.end();
  }

  const batches = await PgBatchStore.open({ connectionString: url, encryptionKey: TEST_KEY });
  const intents = await pgIntentStore(url, KEYS);
  const readModel = await pgReadModel(url);
  const recorded = () =>
    onDatabase(url, async (client) =>
      (await client.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((row) => row.id),
    );
  await thenEveryStoreWorks(
    { batches, intents, readModel, recorded },
    RELEASED_PG_BATCH_MIGRATIONS.map((migration) => migration.id),
  );
});
