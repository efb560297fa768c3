import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExternalIdsTakenError, type BatchItem } from '../../src/batches/batch-store';
import { batchStorePath, SqliteBatchStore } from '../../src/batches/sqlite-batch-store';
import { batchRequestHash } from '../../src/batches/batch-request';
import { payoutRequests, TEST_KEY } from './fixtures';

let dir: string;
const stores: SqliteBatchStore[] = [];

function openStore(file = batchStorePath(dir)): SqliteBatchStore {
  const store = new SqliteBatchStore({ file, encryptionKey: TEST_KEY });
  stores.push(store);
  return store;
}

function createBatch(store: SqliteBatchStore, batchId: string, count: number, prefix = batchId) {
  const items = payoutRequests(count, prefix);
  return { items, ...store.createBatch({ batchId, items, requestHash: batchRequestHash(items), createdAt: new Date('2025-01-02T03:04:05Z') }) };
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'batch-store-'));
});

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the same batchId with the same items exists; with other items it is a conflict', () => {
  const store = openStore();
  expect(createBatch(store, 'b-1', 3).outcome).toBe('created');
  expect(createBatch(store, 'b-1', 3).outcome).toBe('exists');
  const other = payoutRequests(3, 'b-1').map((item) => ({ ...item, amountCents: item.amountCents + 1 }));
  expect(store.createBatch({ batchId: 'b-1', items: other, requestHash: batchRequestHash(other), createdAt: new Date() }).outcome).toBe('conflict');
  expect(store.summary('b-1')?.total).toBe(3);
});

test('a 10,000-item batch is stored in one go and read back page by page, in order, nothing missing or repeated', () => {
  const store = openStore();
  const items = payoutRequests(10_000, 'big');
  const { outcome } = store.createBatch({ batchId: 'big', items, requestHash: batchRequestHash(items), createdAt: new Date() });
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

test('externalIds are unique across batches and single payouts', () => {
  const store = openStore();
  expect(store.registerPayout('single-1')).toBe(true);
  expect(store.registerPayout('single-1')).toBe(false);
  createBatch(store, 'b-1', 2, 'shared');
  expect(store.existingExternalIds(['single-1', 'shared-1', 'shared-2', 'free'])).toEqual(new Set(['single-1', 'shared-1', 'shared-2']));
  // Re-submitting b-1 must not be refused as duplicates of itself; other payouts still count.
  expect(store.existingExternalIds(['single-1', 'shared-1'], { exceptBatchId: 'b-1' })).toEqual(new Set(['single-1']));
  expect(store.registerPayout('shared-1')).toBe(false);

  // A concurrent request took an id after validation: nothing of the batch is stored.
  const items = [...payoutRequests(2, 'fresh'), { ...payoutRequests(1, 'x')[0]!, externalId: 'single-1' }];
  expect(() => store.createBatch({ batchId: 'b-2', items, requestHash: batchRequestHash(items), createdAt: new Date() })).toThrow(ExternalIdsTakenError);
  expect(store.summary('b-2')).toBeUndefined();
  expect(store.existingExternalIds(['fresh-1', 'fresh-2']).size).toBe(0);
});

test('outcomes are idempotent, only move forward, and final states stay final', () => {
  const store = openStore();
  createBatch(store, 'b-1', 4, 'o');
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
  expect(store.listItems('b-1', { limit: 10 }).items[0]).toEqual({ seq: 1, externalId: 'o-1', amountCents: 1_000, state: 'COMPLETED', feeCents: 50 });

  store.recordOutcomes('b-1', [{ externalId: 'o-2', state: 'COMPLETED' }]);
  expect(store.summary('b-1')?.countsByState.COMPLETED.count).toBe(2);
});

test('cancelPending ends the items not yet started; started ones go on', () => {
  const store = openStore();
  createBatch(store, 'b-1', 5, 'c');
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

test('pause and resume are recorded as the batch control', () => {
  const store = openStore();
  createBatch(store, 'b-1', 1);
  store.setControl('b-1', 'PAUSED');
  expect(store.summary('b-1')?.control).toBe('PAUSED');
  store.setControl('b-1', 'RUNNING');
  expect(store.summary('b-1')?.control).toBe('RUNNING');
});

test('items are listed by status in seq order, page by page through an opaque cursor', () => {
  const store = openStore();
  createBatch(store, 'b-1', 25, 'l');
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

test('PIX keys and descriptions are not readable as plain text in the SQLite files', () => {
  const store = openStore();
  const { items } = createBatch(store, 'secret', 50, 'pii');
  const file = batchStorePath(dir);
  const bytes = Buffer.concat([file, `${file}-wal`].filter((name) => existsSync(name)).map((name) => readFileSync(name)));
  expect(bytes.includes(Buffer.from('example.com'))).toBe(false);
  expect(bytes.includes(Buffer.from(items[0]!.pixKey))).toBe(false);
  expect(bytes.includes(Buffer.from('invoice 1'))).toBe(false);
  expect(bytes.includes(Buffer.from('pii-1'))).toBe(true); // the ids are there: the search above could find text
  expect(store.readPage('secret', 0, 1)[0]?.pixKey).toBe(items[0]!.pixKey);
});

test('a store opened again on the same file sees everything: a batch survives a restart', () => {
  const first = openStore();
  createBatch(first, 'b-1', 100, 'r');
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
  expect(createBatch(reopened, 'b-1', 100, 'r').outcome).toBe('exists');
});

test('a store with another key cannot read the PIX keys', () => {
  const file = batchStorePath(dir);
  createBatch(openStore(file), 'b-1', 1);
  const stranger = new SqliteBatchStore({ file, encryptionKey: Buffer.alloc(32, 7) });
  stores.push(stranger);
  expect(() => stranger.readPage('b-1', 0, 1)).toThrow();
  expect(() => new SqliteBatchStore({ file: ':memory:', encryptionKey: Buffer.alloc(16) })).toThrow(/32 bytes/);
});
