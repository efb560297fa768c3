/**
 * The intent store as the engine opens it from its settings: on the payout registry's own SQLite file (so a claim
 * made by one process is the claim every other finds), its answers sealed with the configured payload key.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqlite } from '../../src/db/sqlite';
import { openIntentStore } from '../../src/intents/open-intent-store';
import { sqliteIntentStore } from '../../src/intents/sql-intent-store';
import { freePort } from '../../src/net/free-port';
import { resolvePayloadKeys } from '../../src/temporal/encryption-key';
import { testConfig } from '../helpers/temporal';

const dir = mkdtempSync(path.join(os.tmpdir(), 'intents-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("without DATABASE_URL the store is the registry's SQLite file, sealed with the configured key", async () => {
  const config = testConfig({ DATA_DIR: dir });
  const intents = await openIntentStore(config);
  const key = { businessId: 'order-1', kind: 'payout-submission' } as const;
  await intents.claim(key, 'run-a');
  await intents.record(key, 'run-a', { state: 'SENT', providerId: 'tx-1', answer: '{"id":"tx-1"}' });
  await intents.close();

  const registry = openSqlite(path.join(dir, 'batches.sqlite'), { busyTimeoutMs: 1_000 });
  const rows = registry.prepare('SELECT answer FROM money_intents').all() as { answer: string }[];
  registry.close();
  expect(rows).toEqual([{ answer: expect.stringMatching(/^sealed:test-key:/) }]);

  const again = sqliteIntentStore(path.join(dir, 'batches.sqlite'), resolvePayloadKeys(config));
  expect(await again.claim(key, 'run-b')).toMatchObject({
    by: 'earlier-run',
    intent: { runId: 'run-a', state: 'SENT', providerId: 'tx-1', answer: '{"id":"tx-1"}' },
  });
  await again.close();
});

test('with DATABASE_URL the store opens on that server, not in the SQLite file: a server that is down is named', async () => {
  const dataDir = path.join(dir, 'with-database-url');
  const port = await freePort();
  await expect(
    openIntentStore(testConfig({ DATA_DIR: dataDir, DATABASE_URL: `postgres://engine@127.0.0.1:${port}/engine` })),
  ).rejects.toThrow(`127.0.0.1:${port}`);
  expect(existsSync(path.join(dataDir, 'batches.sqlite'))).toBe(false);
});
