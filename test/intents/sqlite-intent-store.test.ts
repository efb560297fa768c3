/**
 * The SQLite intent store's connection: a writer of another process (here a worker thread with its own
 * better-sqlite3 connection) holding the file's write lock is waited for up to the store's busy timeout, then
 * refused; a closed store has let its connection go and refuses every call.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sqliteIntentStore } from '../../src/intents/sql-intent-store';
import type { IntentKey, IntentStore } from '../../src/intents/intent-store';

const KEYS = { active: { id: 'k1', key: randomBytes(32) }, previous: [] };
const key: IntentKey = { businessId: 'order-1', kind: 'payout-submission' };
let dir: string;
let file: string;
let store: IntentStore | undefined;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sqlite-intents-'));
  file = path.join(dir, 'batches.sqlite');
});
afterEach(async () => {
  await store?.close();
  store = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Another connection's write transaction, on its own thread (this one blocks while SQLite waits for the lock):
 * it claims `key` for run-other, holds the lock `holdMs`, then commits. Resolves once the lock is held; `done`
 * once the worker has committed and exited.
 */
async function otherWriter(holdMs: number): Promise<{ done: Promise<void> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.file);
     db.exec('BEGIN IMMEDIATE');
     db.prepare("INSERT INTO money_intents (business_id, kind, run_id, state, provider_id, answer, claimed_at, updated_at) VALUES (?, ?, 'run-other', 'SENT', NULL, NULL, 1, 1)").run(workerData.businessId, workerData.kind);
     parentPort.postMessage('locked');
     setTimeout(() => { db.exec('COMMIT'); db.close(); }, workerData.holdMs);`,
    {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), file, holdMs, ...key },
    },
  );
  const done = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the writer exited with ${code}`))));
  });
  await Promise.race([new Promise((resolve) => worker.once('message', resolve)), done]);
  return { done };
}

test('a writer holding the lock is waited for: the claim then finds what it wrote, and holds nothing twice', async () => {
  store = sqliteIntentStore(file, KEYS);
  const writer = await otherWriter(500);
  expect(await store.claim(key, 'run-a')).toMatchObject({ by: 'earlier-run', intent: { runId: 'run-other' } });
  await writer.done;
});

test("a writer holding the lock past the store's busy timeout: the claim is refused (SQLITE_BUSY), and the next one after it commits is answered", async () => {
  store = sqliteIntentStore(file, KEYS, 100);
  const writer = await otherWriter(3_000);
  await expect(store.claim(key, 'run-a')).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
  await writer.done;
  expect(await store.claim(key, 'run-a')).toMatchObject({ by: 'earlier-run', intent: { runId: 'run-other' } });
});

test('a closed store refuses every call: its connection is let go', async () => {
  const closing = sqliteIntentStore(file, KEYS);
  await closing.claim(key, 'run-a');
  await closing.close();
  await expect(closing.find(key)).rejects.toThrow(/not open/);
  await expect(closing.claim(key, 'run-a')).rejects.toThrow(/not open/);
});
