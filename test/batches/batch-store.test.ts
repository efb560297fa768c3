/**
 * The batch store's whole contract, run against both implementations: SQLite (a file per test) and
 * PostgreSQL (a database per test on a real server started for this file, test/helpers/postgres.ts).
 * Other processes on the same store are test/batches/store-process.ts.
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ExternalIdsTakenError, type BatchItem, type BatchStore } from '../../src/batches/batch-store';
import { ItemSealer } from '../../src/db/item-sealer';
import { PgBatchStore, SqliteBatchStore } from '../../src/batches/sql-batch-store';
import { batchSchema } from '../../src/batches/batch-schema';
import { engineDatabasePath } from '../../src/db/database';
import { postgresDialect } from '../../src/db/postgres-dialect';
import { RELEASED_SQLITE_BATCH_MIGRATIONS } from '../fixtures/released-batch-migrations';
import { applyMigrations, openSqlite } from '../../src/db/sqlite';
import { batchRequestHash } from '../../src/batches/batch-request';
import type { EncryptionKey } from '../../src/temporal/payload-codec';
import type { PixKeyPayout } from '../../src/payouts/rails/pix-key/request';
import { pollUntil } from '../../src/util/poll';
import { onDatabase, postgresForThisFile } from '../helpers/postgres';
import { payoutRequests, TEST_KEY } from './fixtures';

interface OpenOptions {
  encryptionKey?: EncryptionKey;
  previousKeys?: EncryptionKey[];
  abandonedInsertAfterMs?: number;
}

/** One implementation, seen from the tests: where a test's stores live, how to open one there, how to look under it. */
interface StoreKind {
  name: string;
  /** An empty place for one test's stores (a file, a database). */
  fresh(): Promise<string>;
  open(location: string, options?: OpenOptions): Promise<BatchStore>;
  /** Rows of a batch, whatever its state: what a crash left behind. */
  storedItemCount(location: string, batchId: string): Promise<number>;
  /** Every byte the store keeps for its items, as an attacker reading the storage would see them. */
  storedBytes(location: string): Promise<Buffer>;
  /** The environment that points store-process.ts at this location. */
  processEnv(location: string): Record<string, string>;
}

const tempDirs: string[] = [];

const sqlite: StoreKind = {
  name: 'SQLite',
  fresh() {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'batch-store-'));
    tempDirs.push(dir);
    return Promise.resolve(engineDatabasePath(dir));
  },
  // A promise either way: a refused key is a rejection, as PostgreSQL's open answers it.
  open: (file, options = {}) =>
    Promise.resolve().then(() => new SqliteBatchStore({ file, encryptionKey: TEST_KEY, ...options })),
  storedItemCount(file, batchId) {
    const db = new Database(file, { readonly: true });
    try {
      return Promise.resolve(
        db
          .prepare<[string], { count: number }>('SELECT COUNT(*) AS count FROM batch_items WHERE batch_id = ?')
          .get(batchId)?.count ?? 0,
      );
    } finally {
      db.close();
    }
  },
  storedBytes: (file) =>
    Promise.resolve(
      Buffer.concat([file, `${file}-wal`].filter((name) => existsSync(name)).map((name) => readFileSync(name))),
    ),
  processEnv: (file) => ({ STORE_FILE: file }),
};

// One server for the file, a database per test.
const freshDatabase = postgresForThisFile();

const postgres: StoreKind = {
  name: 'PostgreSQL',
  fresh: freshDatabase,
  open: (connectionString, options = {}) =>
    PgBatchStore.open({ connectionString, encryptionKey: TEST_KEY, ...options }),
  storedItemCount: (url, batchId) =>
    onDatabase(
      url,
      async (client) =>
        (
          await client.query<{ count: number }>('SELECT COUNT(*)::int AS count FROM batch_items WHERE batch_id = $1', [
            batchId,
          ])
        ).rows[0]?.count ?? 0,
    ),
  storedBytes: (url) =>
    onDatabase(url, async (client) =>
      Buffer.concat(
        (await client.query<{ row: string }>('SELECT t::text AS row FROM batch_items t')).rows.map((row) =>
          Buffer.from(row.row),
        ),
      ),
    ),
  processEnv: (url) => ({ STORE_URL: url }),
};

describe.each([sqlite, postgres])('$name batch store', (kind) => {
  let location: string;
  const stores: BatchStore[] = [];
  const children: ChildProcess[] = [];

  async function openStore(options: OpenOptions = {}, at = location): Promise<BatchStore> {
    const store = await kind.open(at, options);
    stores.push(store);
    return store;
  }

  /** Another process on the same store (test/batches/store-process.ts); `lines` collects what it prints. */
  function spawnStoreProcess(env: { ROLE: 'writer' | 'inserter'; BATCH_ID: string; ITEMS: number }) {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'store-process.ts')], {
      env: {
        ...process.env,
        ...kind.processEnv(location),
        STORE_KEY_ID: TEST_KEY.id,
        STORE_KEY_HEX: TEST_KEY.key.toString('hex'),
        ...Object.fromEntries(Object.entries(env).map(([name, value]) => [name, String(value)])),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const lines: string[] = [];
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const complete = text.split('\n');
      partial = complete.pop() ?? '';
      lines.push(...complete);
    });
    const state = { closed: false };
    // 'close', not 'exit': by then everything it printed has been read.
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    void exited.then(() => (state.closed = true));
    return { child, lines, exited, state };
  }

  const storedItemCount = (batchId: string) => kind.storedItemCount(location, batchId);

  async function readAll(store: BatchStore, batchId: string): Promise<BatchItem[]> {
    const seen: BatchItem[] = [];
    for (
      let page = await store.readPage(batchId, 0, 5_000);
      page.length > 0;
      page = await store.readPage(batchId, page[page.length - 1]?.seq ?? 0, 5_000)
    ) {
      seen.push(...page);
    }
    return seen;
  }

  const newBatch = (batchId: string, items: PixKeyPayout[]) => ({
    batchId,
    items,
    requestHash: batchRequestHash(items),
    createdAt: new Date(),
  });

  /** Starts storing a batch in another process and kills it once part of the items are stored. */
  async function insertKilledMidway(batchId: string, count: number): Promise<number> {
    await openStore(); // the schema, before the other process races to create it
    const inserter = spawnStoreProcess({ ROLE: 'inserter', BATCH_ID: batchId, ITEMS: count });
    await pollUntil(async () => ((await storedItemCount(batchId)) > 0 ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 5,
      description: 'the insert to begin',
    });
    inserter.child.kill('SIGKILL');
    await inserter.exited;
    return storedItemCount(batchId);
  }

  async function createBatch(store: BatchStore, batchId: string, count: number, prefix = batchId) {
    const items = payoutRequests(count, prefix);
    return {
      items,
      ...(await store.createBatch({
        batchId,
        items,
        requestHash: batchRequestHash(items),
        createdAt: new Date('2025-01-02T03:04:05Z'),
      })),
    };
  }

  beforeEach(async () => {
    location = await kind.fresh();
  });

  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    }
    for (const store of stores.splice(0)) await store.close();
    for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test('the same batchId with the same items exists; with other items it is a conflict', async () => {
    const store = await openStore();
    expect((await createBatch(store, 'b-1', 3)).outcome).toBe('created');
    expect((await createBatch(store, 'b-1', 3)).outcome).toBe('exists');
    const other = payoutRequests(3, 'b-1').map((item) => ({ ...item, amountCents: item.amountCents + 1 }));
    expect(
      (
        await store.createBatch({
          batchId: 'b-1',
          items: other,
          requestHash: batchRequestHash(other),
          createdAt: new Date(),
        })
      ).outcome,
    ).toBe('conflict');
    expect((await store.summary('b-1'))?.total).toBe(3);
  });

  test('a 10,000-item batch is stored and read back page by page, in order, nothing missing or repeated', async () => {
    const store = await openStore();
    const items = payoutRequests(10_000, 'big');
    const { outcome } = await store.createBatch({
      batchId: 'big',
      items,
      requestHash: batchRequestHash(items),
      createdAt: new Date(),
    });
    expect(outcome).toBe('created');

    const seen: BatchItem[] = [];
    for (
      let page = await store.readPage('big', 0, 500);
      page.length > 0;
      page = await store.readPage('big', page[page.length - 1]?.seq ?? 0, 500)
    ) {
      seen.push(...page);
    }

    expect(seen.map((item) => item.seq)).toEqual(Array.from({ length: 10_000 }, (_, index) => index + 1));
    expect(seen.map(({ seq: _seq, ...request }) => request)).toEqual(items);

    const existing = await store.existingExternalIds([...items.map((item) => item.externalId), 'never-seen']);
    expect(existing.size).toBe(10_000);
    expect(existing.has('never-seen')).toBe(false);
  });

  test('items of every payout method are stored sealed and read back whole', async () => {
    const store = await openStore();
    const items = [
      {
        method: 'pix_key' as const,
        externalId: 'm-1',
        amountCents: 100,
        pixKey: '52998224725',
        keyType: 'CPF' as const,
      },
      {
        method: 'pix_copy_paste' as const,
        externalId: 'm-2',
        amountCents: 200,
        emv: '00020126580014br.gov.bcb.pix',
        description: 'rent',
      },
      { method: 'internal' as const, externalId: 'm-3', amountCents: 300, email: 'ana@example.com' },
      {
        method: 'crypto' as const,
        externalId: 'm-4',
        amountCents: 400,
        wallet: 'TXYZwallet',
        network: 'TRC20' as const,
      },
    ];
    expect(
      (
        await store.createBatch({
          batchId: 'mixed',
          items,
          requestHash: batchRequestHash(items),
          createdAt: new Date(),
        })
      ).outcome,
    ).toBe('created');
    expect((await store.readPage('mixed', 0, 10)).map(({ seq: _seq, ...item }) => item)).toEqual(items);
    expect((await store.listItems('mixed', { limit: 10 })).items.map((item) => item.method)).toEqual([
      'pix_key',
      'pix_copy_paste',
      'internal',
      'crypto',
    ]);
    const bytes = await kind.storedBytes(location);
    expect(bytes.includes(Buffer.from('ana@example.com'))).toBe(false);
    expect(bytes.includes(Buffer.from('TXYZwallet'))).toBe(false);
  });

  test('externalIds are unique across batches and single payouts', async () => {
    const store = await openStore();
    expect(await store.registerPayout('single-1')).toBe(true);
    expect(await store.registerPayout('single-1')).toBe(false);
    await createBatch(store, 'b-1', 2, 'shared');
    expect(await store.existingExternalIds(['single-1', 'shared-1', 'shared-2', 'free'])).toEqual(
      new Set(['single-1', 'shared-1', 'shared-2']),
    );
    // Re-submitting b-1 must not be refused as duplicates of itself; other payouts still count.
    expect(await store.existingExternalIds(['single-1', 'shared-1'], { exceptBatchId: 'b-1' })).toEqual(
      new Set(['single-1']),
    );
    expect(await store.registerPayout('shared-1')).toBe(false);
    expect(await store.payoutOwner('shared-1')).toEqual({ batchId: 'b-1' });
    expect(await store.payoutOwner('single-1')).toEqual({ batchId: null });
    expect(await store.payoutOwner('free')).toBeUndefined();

    // A concurrent request took an id after validation: nothing of the batch is stored.
    const items = [...payoutRequests(2, 'fresh'), { ...payoutRequests(1, 'x')[0]!, externalId: 'single-1' }];
    await expect(
      store.createBatch({ batchId: 'b-2', items, requestHash: batchRequestHash(items), createdAt: new Date() }),
    ).rejects.toThrow(ExternalIdsTakenError);
    expect(await store.summary('b-2')).toBeUndefined();
    expect((await store.existingExternalIds(['fresh-1', 'fresh-2'])).size).toBe(0);
  });

  test('outcomes are idempotent, only move forward, and final states stay final', async () => {
    const store = await openStore();
    await createBatch(store, 'b-1', 4, 'o');
    await store.markStarted('b-1', [1, 2, 3], new Date('2025-01-02T03:05:00Z'));
    await store.markStarted('b-1', [1], new Date('2025-01-02T09:00:00Z'));

    expect(await store.recordOutcomes('b-1', [{ externalId: 'o-1', state: 'COMPLETED', feeCents: 50 }])).toEqual({
      changed: 1,
    });
    expect(await store.recordOutcomes('b-1', [{ externalId: 'o-1', state: 'COMPLETED', feeCents: 50 }])).toEqual({
      changed: 0,
    });
    expect(
      await store.recordOutcomes('b-1', [
        { externalId: 'o-1', state: 'STARTED' },
        { externalId: 'o-1', state: 'FAILED' },
      ]),
    ).toEqual({ changed: 0 });
    await store.markStarted('b-1', [1]);

    // NEEDS_REVIEW can still settle, but never goes back to STARTED.
    await store.recordOutcomes('b-1', [{ externalId: 'o-2', state: 'NEEDS_REVIEW', failureReason: 'no answer' }]);
    expect(await store.recordOutcomes('b-1', [{ externalId: 'o-2', state: 'STARTED' }])).toEqual({ changed: 0 });
    await store.recordOutcomes('b-1', [
      { externalId: 'o-3', state: 'FAILED', failureReason: 'invalid key' },
      { externalId: 'unknown', state: 'FAILED' },
    ]);

    const summary = await store.summary('b-1');
    expect(summary?.countsByState).toEqual({
      PENDING: { count: 1, amountCents: 1_003 },
      STARTED: { count: 0, amountCents: 0 },
      COMPLETED: { count: 1, amountCents: 1_000 },
      FAILED: { count: 1, amountCents: 1_002 },
      CANCELLED: { count: 0, amountCents: 0 },
      NEEDS_REVIEW: { count: 1, amountCents: 1_001 },
    });
    expect(summary?.startedAt).toEqual(new Date('2025-01-02T03:05:00Z'));
    expect(summary?.createdAt).toEqual(new Date('2025-01-02T03:04:05Z'));
    expect(summary?.paidAmountCents).toBe(1_000);
    expect(summary?.done).toBe(false);
    expect((await store.listItems('b-1', { limit: 10 })).items[0]).toEqual({
      seq: 1,
      externalId: 'o-1',
      amountCents: 1_000,
      method: 'pix_key',
      state: 'COMPLETED',
      feeCents: 50,
    });

    await store.recordOutcomes('b-1', [{ externalId: 'o-2', state: 'COMPLETED' }]);
    expect((await store.summary('b-1'))?.countsByState.COMPLETED.count).toBe(2);
  });

  test('two stores writing the same items at once never move one backwards', async () => {
    const [first, second] = [await openStore(), await openStore()];
    await createBatch(first, 'race', 200, 'r');
    const seqs = Array.from({ length: 200 }, (_, index) => index + 1);
    // One store reports each item final, the other (late, as a retried activity would) started and waiting for review.
    await Promise.all([
      ...seqs.map((seq) =>
        first.recordOutcomes('race', [
          { externalId: `r-${seq}`, state: seq % 2 === 0 ? 'COMPLETED' : 'FAILED', feeCents: 7 },
        ]),
      ),
      second.markStarted('race', seqs),
      ...seqs.map((seq) =>
        second.recordOutcomes('race', [{ externalId: `r-${seq}`, state: 'NEEDS_REVIEW', failureReason: 'late' }]),
      ),
      ...seqs.map((seq) => second.recordOutcomes('race', [{ externalId: `r-${seq}`, state: 'STARTED' }])),
    ]);
    const summary = await second.summary('race');
    expect(summary?.countsByState.COMPLETED.count).toBe(100);
    expect(summary?.countsByState.FAILED.count).toBe(100);
    expect(summary?.done).toBe(true);
  });

  test('cancelPending ends the items not yet started; started ones go on', async () => {
    const store = await openStore();
    await createBatch(store, 'b-1', 5, 'c');
    await store.markStarted('b-1', [1, 2]);
    expect(await store.cancelPending('b-1')).toEqual({ cancelled: 3 });
    expect(await store.cancelPending('b-1')).toEqual({ cancelled: 0 });
    let summary = await store.summary('b-1');
    expect(summary?.control).toBe('CANCELLED');
    expect(summary?.countsByState.CANCELLED.count).toBe(3);
    expect(summary?.done).toBe(false);

    await store.recordOutcomes('b-1', [
      { externalId: 'c-1', state: 'COMPLETED' },
      { externalId: 'c-2', state: 'FAILED' },
      { externalId: 'c-3', state: 'COMPLETED' },
    ]);
    await store.markFinished('b-1', new Date('2025-01-02T04:00:00Z'));
    await store.markFinished('b-1', new Date('2025-01-02T05:00:00Z'));
    summary = await store.summary('b-1');
    expect(summary?.countsByState.CANCELLED.count).toBe(3);
    expect(summary?.done).toBe(true);
    expect(summary?.finishedAt).toEqual(new Date('2025-01-02T04:00:00Z'));
  });

  test('pause and resume are recorded as the batch control', async () => {
    const store = await openStore();
    await createBatch(store, 'b-1', 1);
    await store.setControl('b-1', 'PAUSED');
    expect((await store.summary('b-1'))?.control).toBe('PAUSED');
    await store.setControl('b-1', 'RUNNING');
    expect((await store.summary('b-1'))?.control).toBe('RUNNING');
  });

  test('items are listed by status in seq order, page by page through an opaque cursor', async () => {
    const store = await openStore();
    await createBatch(store, 'b-1', 25, 'l');
    const failed = Array.from({ length: 12 }, (_, index) => `l-${2 * index + 1}`);
    await store.recordOutcomes(
      'b-1',
      failed.map((externalId) => ({ externalId, state: 'FAILED' as const, failureReason: 'rejected' })),
    );

    const listed: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await store.listItems('b-1', { status: 'FAILED', limit: 5, ...(cursor ? { cursor } : {}) });
      listed.push(...page.items.map((item) => item.externalId));
      expect(page.items.every((item) => item.state === 'FAILED' && item.failureReason === 'rejected')).toBe(true);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(listed).toEqual(failed);
    expect(pages).toBe(3);

    const all = await store.listItems('b-1', { limit: 25 });
    expect(all.items).toHaveLength(25);
    expect(all.nextCursor).toBeUndefined();
    await expect(store.listItems('b-1', { limit: 5, cursor: 'not-a-cursor' })).rejects.toThrow(/cursor/);
    await expect(store.readPage('b-1', 0, 0)).rejects.toThrow(/limit/);
    expect((await store.listItems('missing', { limit: 5 })).items).toEqual([]);
    expect(await store.summary('missing')).toBeUndefined();
  });

  test('PIX keys and descriptions are not readable as plain text in the storage', async () => {
    const store = await openStore();
    const { items } = await createBatch(store, 'secret', 50, 'pii');
    const bytes = await kind.storedBytes(location);
    expect(bytes.includes(Buffer.from('example.com'))).toBe(false);
    expect(bytes.includes(Buffer.from(items[0]!.pixKey))).toBe(false);
    expect(bytes.includes(Buffer.from('invoice 1'))).toBe(false);
    expect(bytes.includes(Buffer.from('pii-1'))).toBe(true); // the ids are there: the search above could find text
    expect((await store.readPage('secret', 0, 1))[0]).toMatchObject({ method: 'pix_key', pixKey: items[0]!.pixKey });
  });

  test('a store opened again on the same storage sees everything: a batch survives a restart', async () => {
    const first = await openStore();
    await createBatch(first, 'b-1', 100, 'r');
    await first.markStarted('b-1', [1, 2]);
    await first.recordOutcomes('b-1', [{ externalId: 'r-1', state: 'COMPLETED', feeCents: 10 }]);

    // The worker's instance, open at the same time as the API's, then the API restarting.
    const second = await openStore();
    expect((await second.summary('b-1'))?.countsByState.STARTED.count).toBe(1);
    await second.recordOutcomes('b-1', [{ externalId: 'r-2', state: 'FAILED' }]);
    expect((await first.summary('b-1'))?.countsByState.FAILED.count).toBe(1);
    await first.close();

    const reopened = await openStore();
    expect(await reopened.summary('b-1')).toMatchObject({ total: 100, done: false, paidAmountCents: 1_000 });
    expect((await reopened.readPage('b-1', 98, 10)).map((item) => item.externalId)).toEqual(['r-99', 'r-100']);
    expect((await createBatch(reopened, 'b-1', 100, 'r')).outcome).toBe('exists');
  });

  test('a store with another key cannot read the PIX keys', async () => {
    await createBatch(await openStore(), 'b-1', 1);
    const sameIdOtherKey = await openStore({ encryptionKey: { id: TEST_KEY.id, key: randomBytes(32) } });
    const otherId = await openStore({ encryptionKey: { id: 'other', key: randomBytes(32) } });
    await expect(sameIdOtherKey.readPage('b-1', 0, 1)).rejects.toThrow();
    await expect(otherId.readPage('b-1', 0, 1)).rejects.toThrow(/need the key batch-test-key, which is not configured/);
    await expect(kind.open(location, { encryptionKey: { id: 'short', key: Buffer.alloc(16) } })).rejects.toThrow(
      /32 bytes/,
    );
  });

  test('after a key rotation, rows sealed with the previous key still read and new rows are sealed with the new key', async () => {
    const { items: before } = await createBatch(await openStore(), 'before', 2);
    const rotated = { id: 'rotated', key: randomBytes(32) };

    const afterRotation = await openStore({ encryptionKey: rotated, previousKeys: [TEST_KEY] });
    expect((await afterRotation.readPage('before', 0, 10)).map(({ seq: _seq, ...item }) => item)).toEqual(before);
    const { items: after } = await createBatch(afterRotation, 'after', 2);

    // Once every old row is gone the previous key can be dropped: the new rows need only the new key.
    const newKeyOnly = await openStore({ encryptionKey: rotated });
    expect((await newKeyOnly.readPage('after', 0, 10)).map(({ seq: _seq, ...item }) => item)).toEqual(after);
    await expect(newKeyOnly.readPage('before', 0, 10)).rejects.toThrow(/need the key batch-test-key/);
  });

  test('while a 100,000-item batch is stored, the worker writing from another process goes on and never fails, and this process keeps answering', async () => {
    const store = await openStore();
    await createBatch(store, 'paying', 50);
    // It waits for SQLite's lock as production does (10 s), and says how long each write took.
    const worker = spawnStoreProcess({ ROLE: 'writer', BATCH_ID: 'paying', ITEMS: 50 });
    await pollUntil(() => (worker.lines.length > 0 ? true : undefined), {
      timeoutMs: 60_000,
      description: 'the worker process to write',
    });

    const reader = await openStore();
    let seenPartlyStored = false;
    let insertDone = false;
    const writesBefore = worker.lines.length;
    let writesDuring: string[] = [];
    const insert = store.createBatch(newBatch('big', payoutRequests(100_000, 'big'))).finally(() => {
      insertDone = true;
      writesDuring = worker.lines.slice(writesBefore);
    });
    // The longest this process's event loop waited for a turn meanwhile, as a share of the insert: it works in slices.
    const startedAt = performance.now();
    let longestWaitMs = 0;
    while (!insertDone) {
      const asked = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
      longestWaitMs = Math.max(longestWaitMs, performance.now() - asked - 5);
      // The insert may commit while this read is on its way: only a batch seen partly stored is a fault.
      const seen = insertDone ? undefined : await reader.summary('big');
      const stored =
        seen === undefined ? 100_000 : Object.values(seen.countsByState).reduce((sum, state) => sum + state.count, 0);
      if (stored !== 100_000) seenPartlyStored = true;
    }
    const insertMs = performance.now() - startedAt;
    expect((await insert).outcome).toBe('created');
    // Whatever the worker met during the insert has reached us once it has written again (or stopped).
    const linesAtEnd = worker.lines.length;
    await pollUntil(() => (worker.lines.length > linesAtEnd + 2 || worker.state.closed ? true : undefined), {
      timeoutMs: 60_000,
      description: 'the worker process to write after the insert',
    });

    expect(worker.lines.filter((line) => !/^ok \d+$/.test(line))).toEqual([]);
    // The worker got the lock between the insert's slices, never waiting for a long part of it: storing 100,000
    // items in one transaction would hold the lock for all of it. As shares of the insert, whatever the machine's speed.
    const longestWriteMs = Math.max(...writesDuring.map((line) => Number(line.slice(3))));
    expect({ writesDuring: writesDuring.length > 0, longestWrite: longestWriteMs / insertMs < 0.25 }).toEqual({
      writesDuring: true,
      longestWrite: true,
    });
    expect(seenPartlyStored).toBe(false);
    expect(longestWaitMs / insertMs).toBeLessThan(0.25);
    expect(await reader.summary('big')).toMatchObject({
      total: 100_000,
      totalAmountCents: payoutRequests(100_000).reduce((sum, item) => sum + item.amountCents, 0),
    });
    expect((await reader.summary('paying'))?.countsByState.NEEDS_REVIEW.count).toBeGreaterThan(0);
  }, 180_000);

  test('an insert killed midway leaves a batch nobody sees, and the same request sent again completes it', async () => {
    const stored = await insertKilledMidway('crashed', 30_000);
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(30_000);

    const store = await openStore();
    expect(await store.summary('crashed')).toBeUndefined();
    // Not abandoned yet (it stopped a moment ago): another batch under its id is refused, nothing is discarded.
    expect(await store.discardAbandonedBatches()).toEqual({ discarded: 0 });
    expect((await store.createBatch(newBatch('crashed', payoutRequests(2, 'other')))).outcome).toBe('conflict');

    const items = payoutRequests(30_000, 'crashed');
    expect((await store.createBatch(newBatch('crashed', items))).outcome).toBe('created');
    expect(await store.summary('crashed')).toMatchObject({ total: 30_000, done: false });
    const read = await readAll(store, 'crashed');
    expect(read.map((item) => item.seq)).toEqual(items.map((_, index) => index + 1));
    expect(read.map(({ seq: _seq, ...request }) => request)).toEqual(items);
    expect((await store.createBatch(newBatch('crashed', items))).outcome).toBe('exists');
  }, 120_000);

  test('an abandoned insert is discarded by the next submission: its batchId and its externalIds are free again', async () => {
    await insertKilledMidway('gone', 30_000);
    const ids = payoutRequests(30_000, 'gone').map((item) => item.externalId);
    expect((await (await openStore()).existingExternalIds(ids)).size).toBeGreaterThan(0);

    const store = await openStore({ abandonedInsertAfterMs: 0 });
    expect(await store.discardAbandonedBatches()).toEqual({ discarded: 1 });
    expect(await storedItemCount('gone')).toBe(0);
    expect((await store.existingExternalIds(ids)).size).toBe(0);
    // The same items as another batch, and another batch under the old id.
    expect((await store.createBatch(newBatch('retry', payoutRequests(30_000, 'gone')))).outcome).toBe('created');
    expect((await store.createBatch(newBatch('gone', payoutRequests(3, 'new')))).outcome).toBe('created');
    expect((await store.summary('gone'))?.total).toBe(3);
  }, 120_000);

  test('the same request twice at once: both answer, one created and one exists, and every item is stored once', async () => {
    const store = await openStore();
    const items = payoutRequests(3_500, 'twin');
    const outcomes = await Promise.all([
      store.createBatch(newBatch('twin', items)),
      (await openStore()).createBatch(newBatch('twin', items)),
    ]);
    expect(outcomes.map((answer) => answer.outcome).sort()).toEqual(['created', 'exists']);
    expect(await storedItemCount('twin')).toBe(3_500);
    expect((await readAll(store, 'twin')).map(({ seq: _seq, ...request }) => request)).toEqual(items);
  });

  test('an externalId taken by another payout while a big batch is stored: nothing of the batch stays', async () => {
    const store = await openStore();
    const items = payoutRequests(3_500, 'late');
    // Registered after validation, as a concurrent single payout would be: the id is in one of the batch's last chunks.
    expect(await store.registerPayout('late-3400')).toBe(true);
    await expect(store.createBatch(newBatch('late', items))).rejects.toThrow(ExternalIdsTakenError);
    expect(await store.summary('late')).toBeUndefined();
    expect(await storedItemCount('late')).toBe(0);
    expect(await store.existingExternalIds(items.map((item) => item.externalId))).toEqual(new Set(['late-3400']));
    expect(
      (
        await store.createBatch(
          newBatch(
            'late',
            items.filter((item) => item.externalId !== 'late-3400'),
          ),
        )
      ).outcome,
    ).toBe('created');
  });
});

describe('SQLite batch store files from earlier versions', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'batch-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('rows sealed before key ids were stored read after the upgrade, with the key that sealed them now a previous key', async () => {
    const file = engineDatabasePath(dir);
    const old = openSqlite(file, { busyTimeoutMs: 1_000 });
    applyMigrations(old, RELEASED_SQLITE_BATCH_MIGRATIONS.slice(0, 1));
    const sealer = new ItemSealer(TEST_KEY, [], 'batch-items');
    old
      .prepare(
        "INSERT INTO batches (batch_id, request_hash, total, total_amount_cents, control, created_at) VALUES ('legacy', 'h', 1, 1500, 'RUNNING', 0)",
      )
      .run();
    old
      .prepare(
        "INSERT INTO batch_items (batch_id, seq, external_id, amount_cents, key_type, sealed) VALUES ('legacy', 1, 'legacy-1', 1500, 'EMAIL', ?)",
      )
      .run(sealer.sealLegacy('legacy-1', { pixKey: 'ana@example.com', description: 'March' }));
    old.close();

    const upgraded = new SqliteBatchStore({
      file,
      encryptionKey: { id: 'rotated', key: randomBytes(32) },
      previousKeys: [TEST_KEY],
    });
    try {
      expect(await upgraded.readPage('legacy', 0, 10)).toEqual([
        {
          seq: 1,
          method: 'pix_key',
          externalId: 'legacy-1',
          amountCents: 1500,
          pixKey: 'ana@example.com',
          keyType: 'EMAIL',
          description: 'March',
        },
      ]);
    } finally {
      await upgraded.close();
    }
  });

  test('a store file from before the insert states keeps its batches, complete and visible', async () => {
    const file = engineDatabasePath(dir);
    const old = openSqlite(file, { busyTimeoutMs: 1_000 });
    applyMigrations(old, RELEASED_SQLITE_BATCH_MIGRATIONS.slice(0, 1));
    old
      .prepare(
        "INSERT INTO batches (batch_id, request_hash, total, total_amount_cents, control, created_at) VALUES ('old', 'h', 1, 500, 'RUNNING', 0)",
      )
      .run();
    old
      .prepare(
        "INSERT INTO batch_items (batch_id, seq, external_id, amount_cents, key_type, sealed) VALUES ('old', 1, 'old-1', 500, 'CPF', x'00')",
      )
      .run();
    old.close();

    const store = new SqliteBatchStore({ file, encryptionKey: TEST_KEY });
    try {
      expect(await store.summary('old')).toMatchObject({
        total: 1,
        totalAmountCents: 500,
        countsByState: { PENDING: { count: 1, amountCents: 500 } },
      });
      expect(await store.discardAbandonedBatches()).toEqual({ discarded: 0 });
    } finally {
      await store.close();
    }
  });
});

describe('PostgreSQL batch store migrations', () => {
  test('the API and workers opening a new database at once apply each migration once, recorded in schema_migrations', async () => {
    const url = await postgres.fresh();
    const opened = await Promise.all(
      Array.from({ length: 4 }, () => PgBatchStore.open({ connectionString: url, encryptionKey: TEST_KEY })),
    );
    try {
      const recorded = await onDatabase(url, async (client) =>
        (await client.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id')).rows.map((row) => row.id),
      );
      expect(recorded).toEqual(batchSchema(postgresDialect.schema).map((migration) => migration.id));
      expect(await opened[0]!.summary('none')).toBeUndefined();
    } finally {
      await Promise.all(opened.map((store) => store.close()));
    }
  });
});
