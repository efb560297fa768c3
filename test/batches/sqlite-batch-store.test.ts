import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ExternalIdsTakenError, type BatchItem } from '../../src/batches/batch-store';
import { ItemSealer } from '../../src/batches/item-sealer';
import { BATCH_MIGRATIONS } from '../../src/batches/sqlite-batch-schema';
import { batchStorePath, SqliteBatchStore, type SqliteBatchStoreOptions } from '../../src/batches/sqlite-batch-store';
import { applyMigrations, openSqlite } from '../../src/db/sqlite';
import { batchRequestHash } from '../../src/batches/batch-request';
import type { PixKeyPayout } from '../../src/payouts/rails/pix-key/request';
import { pollUntil } from '../../src/util/poll';
import { payoutRequests, TEST_KEY } from './fixtures';

let dir: string;
const stores: SqliteBatchStore[] = [];

function openStore(file = batchStorePath(dir), options: Partial<SqliteBatchStoreOptions> = {}): SqliteBatchStore {
  const store = new SqliteBatchStore({ file, encryptionKey: TEST_KEY, ...options });
  stores.push(store);
  return store;
}

const children: ChildProcess[] = [];

/** Another process on the same file (test/batches/store-process.ts); `lines` collects what it prints. */
function spawnStoreProcess(env: { ROLE: 'writer' | 'inserter'; BATCH_ID: string; ITEMS: number; BUSY_TIMEOUT_MS?: number }) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'store-process.ts')], {
    env: {
      ...process.env,
      STORE_FILE: batchStorePath(dir),
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

/** Rows of a batch in the file, whatever its state: what a crash left behind. */
function storedItemCount(batchId: string): number {
  const db = new Database(batchStorePath(dir), { readonly: true });
  try {
    return db.prepare<[string], { count: number }>('SELECT COUNT(*) AS count FROM batch_items WHERE batch_id = ?').get(batchId)?.count ?? 0;
  } finally {
    db.close();
  }
}

async function readAll(store: SqliteBatchStore, batchId: string): Promise<BatchItem[]> {
  const seen: BatchItem[] = [];
  for (let page = store.readPage(batchId, 0, 5_000); page.length > 0; page = store.readPage(batchId, page[page.length - 1]?.seq ?? 0, 5_000)) {
    seen.push(...page);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return seen;
}

const newBatch = (batchId: string, items: PixKeyPayout[]) => ({ batchId, items, requestHash: batchRequestHash(items), createdAt: new Date() });

/** Starts storing a batch in another process and kills it once part of the items are in the file. */
async function insertKilledMidway(batchId: string, count: number): Promise<number> {
  openStore(); // the schema, before the other process races to create it
  const inserter = spawnStoreProcess({ ROLE: 'inserter', BATCH_ID: batchId, ITEMS: count });
  await pollUntil(() => (storedItemCount(batchId) > 0 ? true : undefined), { timeoutMs: 60_000, intervalMs: 5, description: 'the insert to begin' });
  inserter.child.kill('SIGKILL');
  await inserter.exited;
  return storedItemCount(batchId);
}

async function createBatch(store: SqliteBatchStore, batchId: string, count: number, prefix = batchId) {
  const items = payoutRequests(count, prefix);
  return { items, ...(await store.createBatch({ batchId, items, requestHash: batchRequestHash(items), createdAt: new Date('2025-01-02T03:04:05Z') })) };
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'batch-store-'));
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  }
  for (const store of stores.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the same batchId with the same items exists; with other items it is a conflict', async () => {
  const store = openStore();
  expect((await createBatch(store, 'b-1', 3)).outcome).toBe('created');
  expect((await createBatch(store, 'b-1', 3)).outcome).toBe('exists');
  const other = payoutRequests(3, 'b-1').map((item) => ({ ...item, amountCents: item.amountCents + 1 }));
  expect((await store.createBatch({ batchId: 'b-1', items: other, requestHash: batchRequestHash(other), createdAt: new Date() })).outcome).toBe('conflict');
  expect(store.summary('b-1')?.total).toBe(3);
});

test('a 10,000-item batch is stored and read back page by page, in order, nothing missing or repeated', async () => {
  const store = openStore();
  const items = payoutRequests(10_000, 'big');
  const { outcome } = await store.createBatch({ batchId: 'big', items, requestHash: batchRequestHash(items), createdAt: new Date() });
  expect(outcome).toBe('created');

  const seen: BatchItem[] = [];
  for (let page = store.readPage('big', 0, 500); page.length > 0; page = store.readPage('big', page[page.length - 1]?.seq ?? 0, 500)) {
    seen.push(...page);
  }

  expect(seen.map((item) => item.seq)).toEqual(Array.from({ length: 10_000 }, (_, index) => index + 1));
  expect(seen.map(({ seq: _seq, ...request }) => request)).toEqual(items);

  const existing = store.existingExternalIds([...items.map((item) => item.externalId), 'never-seen']);
  expect(existing.size).toBe(10_000);
  expect(existing.has('never-seen')).toBe(false);
});

test('externalIds are unique across batches and single payouts', async () => {
  const store = openStore();
  expect(store.registerPayout('single-1')).toBe(true);
  expect(store.registerPayout('single-1')).toBe(false);
  await createBatch(store, 'b-1', 2, 'shared');
  expect(store.existingExternalIds(['single-1', 'shared-1', 'shared-2', 'free'])).toEqual(new Set(['single-1', 'shared-1', 'shared-2']));
  // Re-submitting b-1 must not be refused as duplicates of itself; other payouts still count.
  expect(store.existingExternalIds(['single-1', 'shared-1'], { exceptBatchId: 'b-1' })).toEqual(new Set(['single-1']));
  expect(store.registerPayout('shared-1')).toBe(false);

  // A concurrent request took an id after validation: nothing of the batch is stored.
  const items = [...payoutRequests(2, 'fresh'), { ...payoutRequests(1, 'x')[0]!, externalId: 'single-1' }];
  await expect(store.createBatch({ batchId: 'b-2', items, requestHash: batchRequestHash(items), createdAt: new Date() })).rejects.toThrow(ExternalIdsTakenError);
  expect(store.summary('b-2')).toBeUndefined();
  expect(store.existingExternalIds(['fresh-1', 'fresh-2']).size).toBe(0);
});

test('outcomes are idempotent, only move forward, and final states stay final', async () => {
  const store = openStore();
  await createBatch(store, 'b-1', 4, 'o');
  store.markStarted('b-1', [1, 2, 3], new Date('2025-01-02T03:05:00Z'));
  store.markStarted('b-1', [1], new Date('2025-01-02T09:00:00Z'));

  expect(store.recordOutcomes('b-1', [{ externalId: 'o-1', state: 'COMPLETED', feeCents: 50 }])).toEqual({ changed: 1 });
  expect(store.recordOutcomes('b-1', [{ externalId: 'o-1', state: 'COMPLETED', feeCents: 50 }])).toEqual({ changed: 0 });
  expect(store.recordOutcomes('b-1', [{ externalId: 'o-1', state: 'STARTED' }, { externalId: 'o-1', state: 'FAILED' }])).toEqual({ changed: 0 });
  store.markStarted('b-1', [1]);

  // NEEDS_REVIEW can still settle, but never goes back to STARTED.
  store.recordOutcomes('b-1', [{ externalId: 'o-2', state: 'NEEDS_REVIEW', failureReason: 'no answer' }]);
  expect(store.recordOutcomes('b-1', [{ externalId: 'o-2', state: 'STARTED' }])).toEqual({ changed: 0 });
  store.recordOutcomes('b-1', [{ externalId: 'o-3', state: 'FAILED', failureReason: 'invalid key' }, { externalId: 'unknown', state: 'FAILED' }]);

  const summary = store.summary('b-1');
  expect(summary?.countsByState).toEqual({
    PENDING: { count: 1, amountCents: 1_003 },
    STARTED: { count: 0, amountCents: 0 },
    COMPLETED: { count: 1, amountCents: 1_000 },
    FAILED: { count: 1, amountCents: 1_002 },
    CANCELLED: { count: 0, amountCents: 0 },
    NEEDS_REVIEW: { count: 1, amountCents: 1_001 },
  });
  expect(summary?.startedAt).toEqual(new Date('2025-01-02T03:05:00Z'));
  expect(summary?.paidAmountCents).toBe(1_000);
  expect(summary?.done).toBe(false);
  expect(store.listItems('b-1', { limit: 10 }).items[0]).toEqual({ seq: 1, externalId: 'o-1', amountCents: 1_000, method: 'pix_key', state: 'COMPLETED', feeCents: 50 });

  store.recordOutcomes('b-1', [{ externalId: 'o-2', state: 'COMPLETED' }]);
  expect(store.summary('b-1')?.countsByState.COMPLETED.count).toBe(2);
});

test('cancelPending ends the items not yet started; started ones go on', async () => {
  const store = openStore();
  await createBatch(store, 'b-1', 5, 'c');
  store.markStarted('b-1', [1, 2]);
  expect(store.cancelPending('b-1')).toEqual({ cancelled: 3 });
  expect(store.cancelPending('b-1')).toEqual({ cancelled: 0 });
  let summary = store.summary('b-1');
  expect(summary?.control).toBe('CANCELLED');
  expect(summary?.countsByState.CANCELLED.count).toBe(3);
  expect(summary?.done).toBe(false);

  store.recordOutcomes('b-1', [{ externalId: 'c-1', state: 'COMPLETED' }, { externalId: 'c-2', state: 'FAILED' }, { externalId: 'c-3', state: 'COMPLETED' }]);
  store.markFinished('b-1', new Date('2025-01-02T04:00:00Z'));
  store.markFinished('b-1', new Date('2025-01-02T05:00:00Z'));
  summary = store.summary('b-1');
  expect(summary?.countsByState.CANCELLED.count).toBe(3);
  expect(summary?.done).toBe(true);
  expect(summary?.finishedAt).toEqual(new Date('2025-01-02T04:00:00Z'));
});

test('pause and resume are recorded as the batch control', async () => {
  const store = openStore();
  await createBatch(store, 'b-1', 1);
  store.setControl('b-1', 'PAUSED');
  expect(store.summary('b-1')?.control).toBe('PAUSED');
  store.setControl('b-1', 'RUNNING');
  expect(store.summary('b-1')?.control).toBe('RUNNING');
});

test('items are listed by status in seq order, page by page through an opaque cursor', async () => {
  const store = openStore();
  await createBatch(store, 'b-1', 25, 'l');
  const failed = Array.from({ length: 12 }, (_, index) => `l-${2 * index + 1}`);
  store.recordOutcomes('b-1', failed.map((externalId) => ({ externalId, state: 'FAILED' as const, failureReason: 'rejected' })));

  const listed: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = store.listItems('b-1', { status: 'FAILED', limit: 5, ...(cursor ? { cursor } : {}) });
    listed.push(...page.items.map((item) => item.externalId));
    expect(page.items.every((item) => item.state === 'FAILED' && item.failureReason === 'rejected')).toBe(true);
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor);
  expect(listed).toEqual(failed);
  expect(pages).toBe(3);

  const all = store.listItems('b-1', { limit: 25 });
  expect(all.items).toHaveLength(25);
  expect(all.nextCursor).toBeUndefined();
  expect(() => store.listItems('b-1', { limit: 5, cursor: 'not-a-cursor' })).toThrow(/cursor/);
  expect(store.listItems('missing', { limit: 5 }).items).toEqual([]);
  expect(store.summary('missing')).toBeUndefined();
});

test('PIX keys and descriptions are not readable as plain text in the SQLite files', async () => {
  const store = openStore();
  const { items } = await createBatch(store, 'secret', 50, 'pii');
  const file = batchStorePath(dir);
  const bytes = Buffer.concat([file, `${file}-wal`].filter((name) => existsSync(name)).map((name) => readFileSync(name)));
  expect(bytes.includes(Buffer.from('example.com'))).toBe(false);
  expect(bytes.includes(Buffer.from(items[0]!.pixKey))).toBe(false);
  expect(bytes.includes(Buffer.from('invoice 1'))).toBe(false);
  expect(bytes.includes(Buffer.from('pii-1'))).toBe(true); // the ids are there: the search above could find text
  expect(store.readPage('secret', 0, 1)[0]).toMatchObject({ method: 'pix_key', pixKey: items[0]!.pixKey });
});

test('a store opened again on the same file sees everything: a batch survives a restart', async () => {
  const first = openStore();
  await createBatch(first, 'b-1', 100, 'r');
  first.markStarted('b-1', [1, 2]);
  first.recordOutcomes('b-1', [{ externalId: 'r-1', state: 'COMPLETED', feeCents: 10 }]);

  // The worker's instance, open at the same time as the API's, then the API restarting.
  const second = openStore();
  expect(second.summary('b-1')?.countsByState.STARTED.count).toBe(1);
  second.recordOutcomes('b-1', [{ externalId: 'r-2', state: 'FAILED' }]);
  expect(first.summary('b-1')?.countsByState.FAILED.count).toBe(1);
  first.close();

  const reopened = openStore();
  expect(reopened.summary('b-1')).toMatchObject({ total: 100, done: false, paidAmountCents: 1_000 });
  expect(reopened.readPage('b-1', 98, 10).map((item) => item.externalId)).toEqual(['r-99', 'r-100']);
  expect((await createBatch(reopened, 'b-1', 100, 'r')).outcome).toBe('exists');
});

test('a store with another key cannot read the PIX keys', async () => {
  const file = batchStorePath(dir);
  await createBatch(openStore(file), 'b-1', 1);
  const sameIdOtherKey = new SqliteBatchStore({ file, encryptionKey: { id: TEST_KEY.id, key: randomBytes(32) } });
  const otherId = new SqliteBatchStore({ file, encryptionKey: { id: 'other', key: randomBytes(32) } });
  stores.push(sameIdOtherKey, otherId);
  expect(() => sameIdOtherKey.readPage('b-1', 0, 1)).toThrow();
  expect(() => otherId.readPage('b-1', 0, 1)).toThrow(/need the key batch-test-key, which is not configured/);
  expect(() => new SqliteBatchStore({ file: ':memory:', encryptionKey: { id: 'short', key: Buffer.alloc(16) } })).toThrow(/32 bytes/);
});

test('after a key rotation, rows sealed with the previous key still read and new rows are sealed with the new key', async () => {
  const file = batchStorePath(dir);
  const { items: before } = await createBatch(openStore(file), 'before', 2);
  const rotated = { id: 'rotated', key: randomBytes(32) };

  const afterRotation = new SqliteBatchStore({ file, encryptionKey: rotated, previousKeys: [TEST_KEY] });
  stores.push(afterRotation);
  expect(afterRotation.readPage('before', 0, 10).map(({ seq: _seq, ...item }) => item)).toEqual(before);
  const { items: after } = await createBatch(afterRotation, 'after', 2);

  // Once every old row is gone the previous key can be dropped: the new rows need only the new key.
  const newKeyOnly = new SqliteBatchStore({ file, encryptionKey: rotated });
  stores.push(newKeyOnly);
  expect(newKeyOnly.readPage('after', 0, 10).map(({ seq: _seq, ...item }) => item)).toEqual(after);
  expect(() => newKeyOnly.readPage('before', 0, 10)).toThrow(/need the key batch-test-key/);
});

test('rows sealed before key ids were stored read after the upgrade, with the key that sealed them now a previous key', () => {
  const file = batchStorePath(dir);
  const old = openSqlite(file, { busyTimeoutMs: 1_000 });
  applyMigrations(old, BATCH_MIGRATIONS.slice(0, 1));
  const sealer = new ItemSealer(TEST_KEY);
  old.prepare("INSERT INTO batches (batch_id, request_hash, total, total_amount_cents, control, created_at) VALUES ('legacy', 'h', 1, 1500, 'RUNNING', 0)").run();
  old
    .prepare("INSERT INTO batch_items (batch_id, seq, external_id, amount_cents, key_type, sealed) VALUES ('legacy', 1, 'legacy-1', 1500, 'EMAIL', ?)")
    .run(sealer.sealLegacy('legacy-1', { pixKey: 'ana@example.com', description: 'March' }));
  old.close();

  const upgraded = new SqliteBatchStore({ file, encryptionKey: { id: 'rotated', key: randomBytes(32) }, previousKeys: [TEST_KEY] });
  stores.push(upgraded);
  expect(upgraded.readPage('legacy', 0, 10)).toEqual([
    { seq: 1, method: 'pix_key', externalId: 'legacy-1', amountCents: 1500, pixKey: 'ana@example.com', keyType: 'EMAIL', description: 'March' },
  ]);
});

test('while a 100,000-item batch is stored, the worker writing from another process goes on and never meets SQLITE_BUSY', async () => {
  const store = openStore();
  await createBatch(store, 'paying', 50);
  // A short wait for the lock (production waits 10 s): storing 100,000 items in one transaction holds it for seconds.
  const worker = spawnStoreProcess({ ROLE: 'writer', BATCH_ID: 'paying', ITEMS: 50, BUSY_TIMEOUT_MS: 250 });
  await pollUntil(() => (worker.lines.length > 0 ? true : undefined), { timeoutMs: 60_000, description: 'the worker process to write' });

  const reader = openStore();
  let seenBeforeComplete = false;
  let insertDone = false;
  const writesBefore = worker.lines.length;
  let writesDuring = 0;
  const insert = store.createBatch(newBatch('big', payoutRequests(100_000, 'big'))).finally(() => {
    insertDone = true;
    writesDuring = worker.lines.length - writesBefore;
  });
  while (!insertDone) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (!insertDone && reader.summary('big') !== undefined) seenBeforeComplete = true;
  }
  expect((await insert).outcome).toBe('created');
  // Whatever the worker met during the insert has reached us once it has written again (or stopped).
  const linesAtEnd = worker.lines.length;
  await pollUntil(() => (worker.lines.length > linesAtEnd + 2 || worker.state.closed ? true : undefined), {
    timeoutMs: 60_000,
    description: 'the worker process to write after the insert',
  });

  expect(worker.lines.filter((line) => line !== 'ok')).toEqual([]);
  expect(writesDuring).toBeGreaterThanOrEqual(5);
  expect(seenBeforeComplete).toBe(false);
  expect(reader.summary('big')).toMatchObject({ total: 100_000, totalAmountCents: payoutRequests(100_000).reduce((sum, item) => sum + item.amountCents, 0) });
  expect(reader.summary('paying')?.countsByState.NEEDS_REVIEW.count).toBeGreaterThan(0);
}, 180_000);

test('an insert killed midway leaves a batch nobody sees, and the same request sent again completes it', async () => {
  const stored = await insertKilledMidway('crashed', 30_000);
  expect(stored).toBeGreaterThan(0);
  expect(stored).toBeLessThan(30_000);

  const store = openStore();
  expect(store.summary('crashed')).toBeUndefined();
  // Not abandoned yet (it stopped a moment ago): another batch under its id is refused, nothing is discarded.
  expect(await store.discardAbandonedBatches()).toEqual({ discarded: 0 });
  expect((await store.createBatch(newBatch('crashed', payoutRequests(2, 'other')))).outcome).toBe('conflict');

  const items = payoutRequests(30_000, 'crashed');
  expect((await store.createBatch(newBatch('crashed', items))).outcome).toBe('created');
  expect(store.summary('crashed')).toMatchObject({ total: 30_000, done: false });
  const read = await readAll(store, 'crashed');
  expect(read.map((item) => item.seq)).toEqual(items.map((_, index) => index + 1));
  expect(read.map(({ seq: _seq, ...request }) => request)).toEqual(items);
  expect((await store.createBatch(newBatch('crashed', items))).outcome).toBe('exists');
}, 120_000);

test('an abandoned insert is discarded by the next submission: its batchId and its externalIds are free again', async () => {
  await insertKilledMidway('gone', 30_000);
  const ids = payoutRequests(30_000, 'gone').map((item) => item.externalId);
  expect(openStore().existingExternalIds(ids).size).toBeGreaterThan(0);

  const store = openStore(batchStorePath(dir), { abandonedInsertAfterMs: 0 });
  expect(await store.discardAbandonedBatches()).toEqual({ discarded: 1 });
  expect(storedItemCount('gone')).toBe(0);
  expect(store.existingExternalIds(ids).size).toBe(0);
  // The same items as another batch, and another batch under the old id.
  expect((await store.createBatch(newBatch('retry', payoutRequests(30_000, 'gone')))).outcome).toBe('created');
  expect((await store.createBatch(newBatch('gone', payoutRequests(3, 'new')))).outcome).toBe('created');
  expect(store.summary('gone')?.total).toBe(3);
}, 120_000);

test('the same request twice at once: both answer, one created and one exists, and every item is stored once', async () => {
  const store = openStore();
  const items = payoutRequests(3_500, 'twin');
  const outcomes = await Promise.all([store.createBatch(newBatch('twin', items)), openStore().createBatch(newBatch('twin', items))]);
  expect(outcomes.map((answer) => answer.outcome).sort()).toEqual(['created', 'exists']);
  expect(storedItemCount('twin')).toBe(3_500);
  expect((await readAll(store, 'twin')).map(({ seq: _seq, ...request }) => request)).toEqual(items);
});

test('an externalId taken by another payout while a big batch is stored: nothing of the batch stays', async () => {
  const store = openStore();
  const items = payoutRequests(3_500, 'late');
  // Registered after validation, as a concurrent single payout would be: the id is in the batch's fourth chunk.
  expect(store.registerPayout('late-3400')).toBe(true);
  await expect(store.createBatch(newBatch('late', items))).rejects.toThrow(ExternalIdsTakenError);
  expect(store.summary('late')).toBeUndefined();
  expect(storedItemCount('late')).toBe(0);
  expect(store.existingExternalIds(items.map((item) => item.externalId))).toEqual(new Set(['late-3400']));
  expect((await store.createBatch(newBatch('late', items.filter((item) => item.externalId !== 'late-3400')))).outcome).toBe('created');
});

test('a store file from before the insert states keeps its batches, complete and visible', async () => {
  const file = batchStorePath(dir);
  const old = openSqlite(file, { busyTimeoutMs: 1_000 });
  applyMigrations(old, BATCH_MIGRATIONS.slice(0, 1));
  old.prepare("INSERT INTO batches (batch_id, request_hash, total, total_amount_cents, control, created_at) VALUES ('old', 'h', 1, 500, 'RUNNING', 0)").run();
  old.prepare("INSERT INTO batch_items (batch_id, seq, external_id, amount_cents, key_type, sealed) VALUES ('old', 1, 'old-1', 500, 'CPF', x'00')").run();
  old.close();

  const store = openStore(file);
  expect(store.summary('old')).toMatchObject({ total: 1, totalAmountCents: 500, countsByState: { PENDING: { count: 1, amountCents: 500 } } });
  expect(await store.discardAbandonedBatches()).toEqual({ discarded: 0 });
});
