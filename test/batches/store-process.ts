/**
 * Another process on the batch store (SQLite: STORE_FILE; PostgreSQL: STORE_URL), as the worker (or a
 * second API process) is in production. Run with `node --import tsx`, configured by the environment:
 * - `writer`: records starts and outcomes of BATCH_ID's items in a loop, as the worker does; prints `ok <ms>`
 *   after each write (how long it took, waiting for the lock included), `error <code> <message>` and ends
 *   on the first failure;
 * - `inserter`: stores a batch of ITEMS items under BATCH_ID (externalIds `<BATCH_ID>-<n>`), prints `done <outcome>`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { batchRequestHash } from '../../src/batches/batch-request';
import type { BatchStore } from '../../src/batches/batch-store';
import { PgBatchStore, SqliteBatchStore } from '../../src/batches/sql-batch-store';
import { payoutRequests } from './fixtures';

const envSchema = z.object({
  ROLE: z.enum(['writer', 'inserter']),
  STORE_FILE: z.string().min(1).optional(),
  STORE_URL: z.string().min(1).optional(),
  STORE_KEY_HEX: z.string().regex(/^[0-9a-f]{64}$/),
  BATCH_ID: z.string().min(1),
  ITEMS: z.coerce.number().int().min(1),
  STORE_KEY_ID: z.string().min(1),
});

async function main(): Promise<void> {
  const env = envSchema.parse(process.env);
  const encryptionKey = { id: env.STORE_KEY_ID, key: Buffer.from(env.STORE_KEY_HEX, 'hex') };
  const store: BatchStore = env.STORE_URL
    ? await PgBatchStore.open({ connectionString: env.STORE_URL, encryptionKey })
    : new SqliteBatchStore({ file: env.STORE_FILE ?? '', encryptionKey });
  if (env.ROLE === 'inserter') {
    const items = payoutRequests(env.ITEMS, env.BATCH_ID);
    const { outcome } = await store.createBatch({
      batchId: env.BATCH_ID,
      items,
      requestHash: batchRequestHash(items),
      createdAt: new Date(),
    });
    process.stdout.write(`done ${outcome}\n`);
    await store.close();
    return;
  }
  for (let round = 0; ; round += 1) {
    const seq = (round % env.ITEMS) + 1;
    try {
      let startedAt = performance.now();
      await store.markStarted(env.BATCH_ID, [seq]);
      process.stdout.write(`ok ${Math.round(performance.now() - startedAt)}\n`);
      startedAt = performance.now();
      await store.recordOutcomes(env.BATCH_ID, [
        { externalId: `${env.BATCH_ID}-${seq}`, state: 'NEEDS_REVIEW', failureReason: `round ${round}` },
      ]);
      process.stdout.write(`ok ${Math.round(performance.now() - startedAt)}\n`);
    } catch (error) {
      const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN';
      process.stdout.write(`error ${code} ${error instanceof Error ? error.message : String(error)}\n`);
      // Not process.exit: it could drop the line still being written to the pipe.
      process.exitCode = 1;
      await store.close();
      return;
    }
    // About the pace of a worker recording outcomes, without hogging the lock.
    await sleep(2);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
