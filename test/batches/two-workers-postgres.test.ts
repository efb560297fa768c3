/**
 * Beyond one machine: the engine API and two worker processes share the batch store on a real
 * PostgreSQL server (DATABASE_URL), as docker-compose runs them. Both workers pay items of the same
 * batch; each item is debited once at the provider, also when one worker is killed mid-batch.
 */
import { batchItems, totalCents, waitBatchDone } from '../helpers/batches';
import { debitsByExternalId } from '../helpers/payouts';
import type { BatchSummaryResponse } from '../../src/api/batches/schemas';
import type { ChildProcess } from 'node:child_process';
import { pollUntil } from '../../src/util/poll';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

let postgres: TestPostgres;
let stack: EngineHarness;
let workers: ChildProcess[];

beforeAll(async () => {
  postgres = await startPostgres();
  const storeUrl = await postgres.createDatabase('batches');
  stack = await startEngineHarness(
    {
      DATABASE_URL: storeUrl,
      SANDBOX_SETTLE_MS: '50',
      BATCH_WINDOW: '40',
      BATCH_PAGE_SIZE: '25',
      BATCH_POLL_MS: '200',
      BATCH_MAX_HISTORY_EVENTS: '100',
    },
    { inProcessWorker: false },
  );
  workers = await Promise.all([stack.spawnWorkerProcess(), stack.spawnWorkerProcess()]);
}, 180_000);
afterAll(async () => {
  await stack?.close();
  await postgres?.stop();
});

type Summary = BatchSummaryResponse;

const summary = async (batchId: string) => (await stack.api<Summary>('GET', `/v1/payout-batches/${batchId}`)).body;
const waitUntil = (batchId: string, test: (current: Summary) => boolean, description: string, timeoutMs = 60_000) =>
  pollUntil(
    async () => {
      const current = await summary(batchId);
      return test(current) ? current : undefined;
    },
    { timeoutMs, intervalMs: 200, description },
  );
// A worker killed mid-batch leaves claims that wait out their activity's timeout: a long quiet spell is no stall yet.
const waitDone = (batchId: string) => waitBatchDone(stack, batchId, { stallMs: 150_000 });

/** The workers (by their Temporal identity) that completed workflow tasks of these payouts. */
async function workerIdentities(externalIds: readonly string[]): Promise<Set<string>> {
  const identities = new Set<string>();
  for (const externalId of externalIds) {
    const history = await stack.temporal.client.workflow.getHandle(payoutWorkflowId(externalId)).fetchHistory();
    for (const event of history.events ?? []) {
      const identity =
        event.workflowTaskCompletedEventAttributes?.identity ?? event.activityTaskStartedEventAttributes?.identity;
      if (identity) identities.add(identity);
    }
  }
  return identities;
}

test('two worker processes on the PostgreSQL store pay a batch of 200 together, each item debited once', async () => {
  const list = batchItems('two', 200);
  const accepted = await stack.api<{ batchId: string; total: number }>('POST', '/v1/payout-batches', { items: list });
  expect(accepted.status).toBe(202);

  const done = await waitDone(accepted.body.batchId);
  expect(done.counts.COMPLETED).toEqual({ count: 200, amount: totalCents(list) / 100 });
  const debits = await debitsByExternalId(stack);
  expect(list.map((item) => debits.get(item.externalId) ?? 0)).toEqual(list.map(() => 1));
  // Both processes took part (a sample of the payouts is enough to see both identities).
  expect(
    (await workerIdentities(list.filter((_, index) => index % 10 === 0).map((item) => item.externalId))).size,
  ).toBeGreaterThanOrEqual(2);
}, 600_000);

test('one of the two workers is killed mid-batch: the other finishes it, each item debited once', async () => {
  const list = batchItems('killed', 200);
  const { body } = await stack.api<{ batchId: string }>('POST', '/v1/payout-batches', { items: list });
  await waitUntil(body.batchId, (current) => (current.counts.COMPLETED?.count ?? 0) >= 30, 'some items to complete');
  const [doomed] = workers;
  const exited = new Promise((resolve) => doomed?.once('exit', resolve));
  doomed?.kill('SIGKILL');
  await exited;

  const done = await waitDone(body.batchId);
  expect(done.counts.COMPLETED).toEqual({ count: 200, amount: totalCents(list) / 100 });
  for (const state of ['PENDING', 'STARTED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW'] as const)
    expect(done.counts[state].count).toBe(0);
  const debits = await debitsByExternalId(stack);
  expect(list.map((item) => debits.get(item.externalId) ?? 0)).toEqual(list.map(() => 1));
}, 600_000);
