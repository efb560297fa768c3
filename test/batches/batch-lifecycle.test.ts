/**
 * Batches through the real stack: engine API over HTTP, Temporal dev server, worker, sandbox over HTTP.
 * Small pages, windows and history limits so that a few hundred items exercise paging, the window and
 * continue-as-new; every test ends by checking the provider's ledger: one debit per paid item, no more.
 */
import { batchItems, totalCents, waitBatchDone, type BatchItem } from '../helpers/batches';
import { debitsByExternalId } from '../helpers/payouts';
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { BatchResult } from '../../src/contracts/batch';
import type { BatchItemsResponse, BatchSummaryResponse } from '../../src/api/batches/schemas';
import { batchProgressQuery, batchWorkflowId } from '../../src/contracts/batch';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { pollUntil } from '../../src/util/poll';
import { eventsOfEveryRun } from '../../src/temporal/every-run';
import { startEngineHarness } from '../helpers/engine-harness';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';
import Database from 'better-sqlite3';
import { engineDatabasePath } from '../../src/db/database';
import { BatchStatus } from '../../src/temporal/search-attributes';
import { buildBrCode } from '../../src/pix/brcode';
import { healthDuring } from './health-during';
import { forThisFile } from '../helpers/for-this-file';

const stack = forThisFile(
  () =>
    startEngineHarness({
      SANDBOX_SETTLE_MS: '50',
      BATCH_WINDOW: '40',
      BATCH_PAGE_SIZE: '10',
      BATCH_POLL_MS: '200',
      BATCH_MAX_HISTORY_EVENTS: '100',
      BATCH_PROBLEM_AFTER_MS: '2000',
      // A payout whose submission a killed worker claimed and never answered is not sent again: it goes to review at
      // this deadline (the default is an hour), which the killed-worker test waits for.
      PAYOUT_SUBMIT_DEADLINE_MS: '60000',
    }),
  120_000,
);
afterEach(() => stack.admin('DELETE', '/sandbox/faults'));

// The answers' types come from the API's own schemas.
type Summary = BatchSummaryResponse;
type Items = BatchItemsResponse;

const summary = async (batchId: string) => (await stack.api<Summary>('GET', `/v1/payout-batches/${batchId}`)).body;
/** A batch that stops moving fails the test naming where its items stand; a slow one is waited for. */
const waitDone = (batchId: string, stallMs?: number) =>
  waitBatchDone(stack, batchId, stallMs === undefined ? {} : { stallMs });
const waitUntil = (batchId: string, test: (current: Summary) => boolean, description: string) =>
  pollUntil(
    async () => {
      const current = await summary(batchId);
      return test(current) ? current : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 100, description },
  );

/**
 * The batch workflow's whole history, every run of it (continue-as-new chains runs by continuedExecutionRunId): what an
 * operator pages through in the Temporal UI, and what the server stores for the batch itself.
 */
async function batchHistory(batchId: string): Promise<{ events: number; activityTasks: number; markers: number }> {
  const events = (await eventsOfEveryRun(stack.temporal.client, batchWorkflowId(batchId))).flat();
  return {
    events: events.length,
    activityTasks: events.filter((event) => event.activityTaskScheduledEventAttributes).length,
    markers: events.filter((event) => event.markerRecordedEventAttributes).length,
  };
}

async function allItems(batchId: string, status?: string, pageSize = 100): Promise<Items['items']> {
  const all: Items['items'] = [];
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({
      limit: String(pageSize),
      ...(status ? { status } : {}),
      ...(cursor ? { cursor } : {}),
    });
    const page = await stack.api<Items>('GET', `/v1/payout-batches/${batchId}/items?${query.toString()}`);
    expect(page.status).toBe(200);
    all.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return all;
}

test('a batch of 600 completes with exact counts and amounts, over several runs, and the provider debits each item once', async () => {
  const list = batchItems('batch', 600);
  const accepted = await stack.api<{ batchId: string; total: number; totalAmount: number }>(
    'POST',
    '/v1/payout-batches',
    { items: list },
  );
  expect(accepted.status).toBe(202);
  expect(accepted.body).toMatchObject({ total: 600, totalAmount: totalCents(list) / 100 });

  const done = await waitDone(accepted.body.batchId);
  expect(done.counts.COMPLETED).toEqual({ count: 600, amount: totalCents(list) / 100 });
  for (const state of ['PENDING', 'STARTED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW'] as const)
    expect(done.counts[state].count).toBe(0);
  expect(done.paidAmount).toBe(totalCents(list) / 100);
  expect(Date.parse(done.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(done.startedAt ?? ''));

  const listed = await allItems(accepted.body.batchId);
  expect(listed.map((item) => item.externalId)).toEqual(list.map((item) => item.externalId));
  expect(listed.every((item) => item.status === 'COMPLETED' && item.fee !== undefined)).toBe(true);

  const debits = await debitsByExternalId(stack);
  expect(list.map((item) => debits.get(item.externalId) ?? 0)).toEqual(list.map(() => 1));

  // Continue-as-new happened (small history limit) and no item was started twice or skipped.
  const result = (await stack.temporal.client.workflow
    .getHandle(batchWorkflowId(accepted.body.batchId))
    .result()) as BatchResult;
  expect(result.runs).toBeGreaterThan(1);
  // What an operator pages through in the UI stays small: each step of the batch (the counts read, the next page
  // started) is one marker, at most a poll's timer and workflow task around it; the only activity task is the close.
  // The loop before it ran three activities a step, about 17 events: ~1 event per item here, against ~0.25.
  const history = await batchHistory(accepted.body.batchId);
  expect(history.activityTasks).toBe(1);
  expect(history.events).toBeLessThanOrEqual(6 * history.markers + 20 * result.runs);
  await recordHistory(stack.temporal.client, batchWorkflowId(accepted.body.batchId), 'batch-top-up-completed-last-run');
  await recordHistory(
    stack.temporal.client,
    payoutWorkflowId(list[0]!.externalId),
    currentPayoutHistory('of-batch-completed'),
  );
}, 600_000);

test('one CSV mixing every rail: each item paid once on its own rail, the item list names its method and never its destination', async () => {
  const batchId = `mixed-${randomUUID().slice(0, 8)}`;
  const emv = (cents: number) =>
    buildBrCode({
      pixKey: 'loja@example.com',
      merchantName: 'Loja',
      merchantCity: 'SAO PAULO',
      txid: `T${cents}`,
      amountCentavos: cents,
    });
  const rows = [
    ['pix', '', '10.00', 'ana@example.com', 'EMAIL', '', '', '', ''],
    ['pix2', 'pix_key', '11.00', '52998224725', 'CPF', '', '', '', ''],
    ['emv', 'pix_copy_paste', '', '', '', emv(1_250), '', '', ''],
    [
      'emv2',
      'pix_copy_paste',
      '13.50',
      '',
      '',
      buildBrCode({ pixKey: 'loja@example.com', merchantName: 'Loja', merchantCity: 'SAO PAULO', txid: 'OPEN' }),
      '',
      '',
      '',
    ],
    ['int', 'internal', '7.25', '', '', '', 'Recipient@Sandbox.test', '', ''],
    ['int2', 'internal', '8.00', '', '', '', 'recipient@sandbox.test', '', ''],
    ['usdt', 'crypto', '60.00', '', '', '', '', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', 'TRC20'],
  ].map(([id, ...rest]) => [`${batchId}-${id ?? ''}`, ...rest]);
  const csv = [
    'externalId,method,amount,pixKey,keyType,emv,email,wallet,network',
    ...rows.map((row) => row.join(',')),
  ].join('\n');
  const response = await fetch(`${stack.apiUrl}/v1/payout-batches?batchId=${batchId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.config.ENGINE_API_KEYS[0]?.secret}`, 'content-type': 'text/csv' },
    body: csv,
  });
  const expectedCents = 1_000 + 1_100 + 1_250 + 1_350 + 725 + 800 + 6_000;
  expect(response.status).toBe(202);
  expect(await response.json()).toMatchObject({ batchId, total: 7, totalAmount: expectedCents / 100 });

  const done = await waitDone(batchId);
  expect(done.counts.COMPLETED).toEqual({ count: 7, amount: expectedCents / 100 });
  const listed = await allItems(batchId);
  expect(listed.map((item) => [item.externalId.slice(batchId.length + 1), item.method])).toEqual([
    ['pix', 'pix_key'],
    ['pix2', 'pix_key'],
    ['emv', 'pix_copy_paste'],
    ['emv2', 'pix_copy_paste'],
    ['int', 'internal'],
    ['int2', 'internal'],
    ['usdt', 'crypto'],
  ]);
  expect(JSON.stringify(listed)).not.toMatch(/ana@example|52998224725|recipient@|TQn9Y2/i);

  // Withdrawals, BR Codes and crypto carry the externalId to the provider; internal transfers have only the provider's id.
  const debits = await debitsByExternalId(stack);
  for (const id of ['pix', 'pix2', 'emv', 'emv2', 'usdt'])
    expect([id, debits.get(`${batchId}-${id}`) ?? 0]).toEqual([id, 1]);
  for (const id of ['int', 'int2']) {
    const payout = await stack.api<{ method: string; providerTransactionId?: string }>(
      'GET',
      `/v1/payouts/${batchId}-${id}`,
    );
    expect(payout.body.method).toBe('internal');
    const entries = await stack.admin<{ entries: unknown[] }>(
      'GET',
      `/sandbox/ledger?operationId=${encodeURIComponent(payout.body.providerTransactionId ?? 'none')}`,
    );
    expect([id, entries.body.entries.length]).toEqual([id, 1]);
  }
}, 600_000);

test('the same batch again answers the existing batch; another batch under its id is 409; its items cannot be paid alone', async () => {
  const list = batchItems('again', 3);
  const batchId = `again-${randomUUID().slice(0, 8)}`;
  const first = await stack.api('POST', '/v1/payout-batches', { batchId, items: list });
  const second = await stack.api('POST', '/v1/payout-batches', { batchId, items: list });
  expect([first.status, second.status]).toEqual([202, 202]);
  expect(second.body).toEqual(first.body);
  const other = await stack.api('POST', '/v1/payout-batches', { batchId, items: batchItems('other', 2) });
  expect(other.status).toBe(409);
  const alone = await stack.api('POST', '/v1/payouts', list[0]);
  expect(alone.status).toBe(409);
  await waitDone(batchId);
  const debits = await debitsByExternalId(stack);
  expect(list.map((item) => debits.get(item.externalId) ?? 0)).toEqual([1, 1, 1]);
});

/** A CSV body as the merchant's file: `POST /v1/payout-batches?batchId=` with `text/csv`. */
async function postCsv(
  batchId: string,
  csv: string,
): Promise<{ status: number; body: { code?: string; message?: string; total?: number } }> {
  const response = await fetch(`${stack.apiUrl}/v1/payout-batches?batchId=${batchId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.config.ENGINE_API_KEYS[0]?.secret}`, 'content-type': 'text/csv' },
    body: csv,
  });
  return {
    status: response.status,
    body: (await response.json()) as { code?: string; message?: string; total?: number },
  };
}

const toCsv = (list: BatchItem[]) =>
  [
    'externalId,amount,pixKey,keyType',
    ...list.map((item) => `${item.externalId},${item.amount.toFixed(2)},${item.pixKey},${item.keyType}`),
  ].join('\n');
test('a CSV of 100,001 rows is refused 413 with the limit in its message; nothing is stored, so its ids stay free', async () => {
  const batchId = `over-${randomUUID().slice(0, 8)}`;
  const list = batchItems('over', 100_001);
  const answer = await postCsv(batchId, toCsv(list));
  expect(answer.status).toBe(413);
  expect(answer.body).toMatchObject({
    code: 'BATCH_TOO_LARGE',
    message: expect.stringContaining('at most 100,000 items'),
  });
  expect((await stack.api('GET', `/v1/payout-batches/${batchId}`)).status).toBe(404);

  const again = await stack.api<{ batchId: string }>('POST', '/v1/payout-batches', { items: list.slice(0, 1) });
  expect(again.status).toBe(202);
  await waitDone(again.body.batchId);
}, 600_000);

test('a JSON batch of 100,001 items is refused 413 with the limit in its message; nothing is stored or started', async () => {
  const batchId = `over-json-${randomUUID().slice(0, 8)}`;
  const list = batchItems('over-json', 100_001);
  const answer = await stack.api('POST', '/v1/payout-batches', { batchId, items: list });
  expect(answer.status).toBe(413);
  expect(answer.body).toMatchObject({
    code: 'BATCH_TOO_LARGE',
    message: expect.stringContaining('at most 100,000 items'),
  });
  expect((await stack.api('GET', `/v1/payout-batches/${batchId}`)).status).toBe(404);
  await expect(stack.temporal.client.workflow.getHandle(batchWorkflowId(batchId)).describe()).rejects.toThrow(
    WorkflowNotFoundError,
  );
  expect((await stack.api('GET', `/v1/payouts/${list[0]?.externalId ?? ''}`)).status).toBe(404);
}, 120_000);

test('a CSV with a header and no rows, and an empty items array, are refused 422; nothing is stored', async () => {
  const batchId = `empty-${randomUUID().slice(0, 8)}`;
  const csv = await postCsv(batchId, 'externalId,amount,pixKey,keyType\r\n');
  expect(csv.status).toBe(422);
  expect(csv.body).toMatchObject({ code: 'BATCH_EMPTY', message: expect.stringContaining('at least one item') });
  const json = await stack.api('POST', '/v1/payout-batches', { batchId, items: [] });
  expect(json.status).toBe(422);
  expect(json.body).toMatchObject({ code: 'BATCH_EMPTY' });
  expect((await stack.api('GET', `/v1/payout-batches/${batchId}`)).status).toBe(404);
});

test('the API keeps answering /healthz while it accepts a 100,000-row CSV and a 100,000-item JSON batch; every item is listed', async () => {
  // Accepted, never paid: 200,000 payouts would swamp the shared test server.
  await stack.stopWorker();
  try {
    for (const format of ['csv', 'json'] as const) {
      const batchId = `big-${format}-${randomUUID().slice(0, 8)}`;
      const list = batchItems(`big-${format}`, 100_000);
      const upload: Promise<{ status: number; body: unknown }> =
        format === 'csv'
          ? postCsv(batchId, toCsv(list))
          : stack.api('POST', '/v1/payout-batches', { batchId, items: list });
      const { result, healthAnswers, longestSilence } = await healthDuring(stack.apiUrl, upload);
      if (result.status === 202)
        await stack.temporal.client.workflow
          .getHandle(batchWorkflowId(batchId))
          .terminate('test: accepted, not to be paid');
      expect([format, result.status, result.body]).toEqual([
        format,
        202,
        expect.objectContaining({ total: 100_000, totalAmount: totalCents(list) / 100 }),
      ]);
      // Answered throughout, not only before and after: no stretch of a quarter of the acceptance went without an answer
      // (here about 2 %; one phase done in one go, the items' validation, made it a third).
      expect({ format, answered: healthAnswers > 0, longestSilenceUnderAQuarter: longestSilence < 0.25 }).toEqual({
        format,
        answered: true,
        longestSilenceUnderAQuarter: true,
      });
      const listed = await allItems(batchId, undefined, 1_000);
      expect(listed.map((item) => item.externalId)).toEqual(list.map((item) => item.externalId));
    }
  } finally {
    await stack.startWorker();
  }
}, 300_000);

test('a CSV with bad rows is refused 422 naming each row, field and message, and nothing starts', async () => {
  const taken = batchItems('taken', 1)[0]!;
  expect((await stack.api('POST', '/v1/payouts', taken)).status).toBe(202);
  const batchId = `csv-${randomUUID().slice(0, 8)}`;
  const csv = [
    'externalId,amount,pixKey,keyType,description',
    `${batchId}-ok,10.50,ana@example.com,EMAIL,fine`,
    `${batchId}-neg,-3,ana@example.com,EMAIL,`,
    `${batchId}-key,12.00,529.982.247-20,CPF,`,
    `${batchId}-ok,11.00,bia@example.com,EMAIL,`,
    `${taken.externalId},9.99,caio@example.com,EMAIL,`,
    `${batchId}-type,5.00,+5511987654321,PIX,`,
  ].join('\n');
  const response = await fetch(`${stack.apiUrl}/v1/payout-batches?batchId=${batchId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.config.ENGINE_API_KEYS[0]?.secret}`, 'content-type': 'text/csv' },
    body: csv,
  });
  expect(response.status).toBe(422);
  const body = (await response.json()) as {
    code: string;
    rows: { index: number; externalId?: string; field: string; message: string }[];
  };
  expect(body.code).toBe('BATCH_INVALID');
  const named = body.rows.map((row) => [row.index, row.field]);
  expect(named).toEqual(
    expect.arrayContaining([
      [1, 'amount'],
      [2, 'pixKey'],
      [3, 'externalId'],
      [4, 'externalId'],
      [5, 'keyType'],
    ]),
  );
  expect(named.some(([index]) => index === 0)).toBe(false);
  expect(body.rows.every((row) => row.message.length > 0)).toBe(true);

  expect((await stack.api('GET', `/v1/payout-batches/${batchId}`)).status).toBe(404);
  const debits = await debitsByExternalId(stack);
  expect(debits.has(`${batchId}-ok`)).toBe(false);
});

test('cancelling mid-batch: items not started end CANCELLED, started ones finish, nothing else is paid', async () => {
  await stack.admin('PUT', '/sandbox/faults', { latencyMs: 100 });
  const list = batchItems('cancel', 200);
  const { body } = await stack.api<{ batchId: string }>('POST', '/v1/payout-batches', { items: list });
  await waitUntil(body.batchId, (current) => (current.counts.COMPLETED?.count ?? 0) >= 5, 'some items to complete');

  const cancelled = await stack.api<Summary>('POST', `/v1/payout-batches/${body.batchId}/cancel`);
  expect(cancelled.status).toBe(200);
  expect(cancelled.body.control).toBe('CANCELLED');

  const done = await waitDone(body.batchId);
  const completed = done.counts.COMPLETED?.count ?? 0;
  const cancelledCount = done.counts.CANCELLED?.count ?? 0;
  expect(cancelledCount).toBeGreaterThan(0);
  expect(completed + cancelledCount).toBe(200);

  const statusOf = new Map((await allItems(body.batchId)).map((item) => [item.externalId, item.status]));
  const debits = await debitsByExternalId(stack);
  for (const item of list)
    expect([item.externalId, debits.get(item.externalId) ?? 0]).toEqual([
      item.externalId,
      statusOf.get(item.externalId) === 'COMPLETED' ? 1 : 0,
    ]);
  expect((await stack.api('POST', `/v1/payout-batches/${body.batchId}/resume`)).status).toBe(409);
}, 600_000);

test('pause holds new starts until resume, then the batch completes', async () => {
  const list = batchItems('pause', 120);
  const { body } = await stack.api<{ batchId: string }>('POST', '/v1/payout-batches', { items: list });
  const paused = await stack.api<Summary>('POST', `/v1/payout-batches/${body.batchId}/pause`);
  expect(paused.body.control).toBe('PAUSED');
  // The pause is taken by the workflow's next task: a top-up that task was already making starts its items. Once
  // the workflow says it is paused and what was in flight settles, nothing more starts while it goes on polling.
  const handle = stack.temporal.client.workflow.getHandle(batchWorkflowId(body.batchId));
  await pollUntil(async () => ((await handle.query(batchProgressQuery)).paused ? true : undefined), {
    timeoutMs: 30_000,
    intervalMs: 100,
    description: 'the batch workflow to take the pause',
  });
  const settled = await waitUntil(
    body.batchId,
    (current) => (current.counts.STARTED?.count ?? 0) === 0,
    'the items in flight to settle',
  );
  expect(settled.counts.PENDING.count).toBeGreaterThan(0);
  const eventsThen = (await handle.describe()).historyLength;
  await pollUntil(async () => ((await handle.describe()).historyLength >= eventsThen + 6 ? true : undefined), {
    timeoutMs: 30_000,
    intervalMs: 100,
    description: 'the paused batch workflow to go through a few polls',
  });
  expect((await summary(body.batchId)).counts.PENDING?.count).toBe(settled.counts.PENDING?.count);

  expect((await stack.api<Summary>('POST', `/v1/payout-batches/${body.batchId}/resume`)).body.control).toBe('RUNNING');
  const done = await waitDone(body.batchId);
  expect(done.counts.COMPLETED?.count).toBe(120);
  await handle.result();
  await recordHistory(stack.temporal.client, batchWorkflowId(body.batchId), 'batch-top-up-paused-resumed-last-run');
}, 600_000);

test('a row that cannot be opened stalls the batch with its problem shown (summary and search attribute); once repaired, the batch completes', async () => {
  const list = batchItems('stall', 120);
  const { body } = await stack.api<{ batchId: string }>('POST', '/v1/payout-batches', { items: list });
  await stack.api('POST', `/v1/payout-batches/${body.batchId}/pause`);
  await waitUntil(
    body.batchId,
    (current) => (current.counts.STARTED?.count ?? 0) === 0,
    'the items in flight to settle',
  );
  const last = list.at(-1)!.externalId;
  const db = new Database(engineDatabasePath(stack.config.DATA_DIR));
  const original = db
    .prepare<[string], { sealed: Buffer }>('SELECT sealed FROM batch_items WHERE external_id = ?')
    .get(last)!.sealed;
  const corrupted = Buffer.from(original);
  corrupted[corrupted.length - 1] = (corrupted[corrupted.length - 1] ?? 0) ^ 0xff;
  db.prepare('UPDATE batch_items SET sealed = ? WHERE external_id = ?').run(corrupted, last);

  await stack.api('POST', `/v1/payout-batches/${body.batchId}/resume`);
  // The row's problem, not any: on a loaded machine a step of the batch can take past the problem time and show a
  // problem of its own until its next try succeeds.
  const stalled = await waitUntil(
    body.batchId,
    (current) => current.problem?.activity === 'topUpBatch',
    "the batch to show the row's problem",
  );
  expect(stalled.problem).toMatchObject({ activity: 'topUpBatch', message: expect.any(String) as unknown });
  const handle = stack.temporal.client.workflow.getHandle(batchWorkflowId(body.batchId));
  expect((await handle.describe()).typedSearchAttributes.get(BatchStatus)).toBe('STALLED');

  db.prepare('UPDATE batch_items SET sealed = ? WHERE external_id = ?').run(original, last);
  db.close();
  const done = await waitDone(body.batchId);
  expect(done.counts.COMPLETED?.count).toBe(120);
  expect(done.problem).toBeUndefined();
  // The store says done when the batch's last activity closed it; the workflow sets DONE just after.
  await handle.result();
  expect((await handle.describe()).typedSearchAttributes.get(BatchStatus)).toBe('DONE');
}, 600_000);

test('the worker process is killed mid-batch; a new worker finishes it: no item paid twice, each either paid once or, caught by the kill between its claim and its send, in review unpaid', async () => {
  await stack.stopWorker();
  const doomed = await stack.spawnWorkerProcess();
  const list = batchItems('killed', 150);
  const { body } = await stack.api<{ batchId: string }>('POST', '/v1/payout-batches', { items: list });
  await waitUntil(body.batchId, (current) => (current.counts.COMPLETED?.count ?? 0) >= 20, 'some items to complete');
  doomed.kill('SIGKILL');
  await stack.startWorker();

  // What the killed worker held comes back only when its timeouts pass (30 s per activity, then its retry), and
  // the rest of the batch runs after: on a loaded machine that is past the two minutes a healthy batch needs. A
  // submission the kill caught after its claim and before its answer is looked up at the provider: found, it
  // completes; not found, it is never sent again (that attempt may have been on its way) and reaches review at
  // the submission deadline.
  // The killed worker's claims wait out their activity's timeout before another worker takes them.
  const done = await waitDone(body.batchId, 150_000);
  const completed = done.counts.COMPLETED?.count ?? 0;
  expect(completed + (done.counts.NEEDS_REVIEW?.count ?? 0)).toBe(150);
  const debits = await debitsByExternalId(stack);
  const perItem = list.map((item) => debits.get(item.externalId) ?? 0);
  expect(perItem.filter((count) => count > 1)).toEqual([]);
  expect(perItem.filter((count) => count === 1)).toHaveLength(completed);
  expect(completed).toBeGreaterThanOrEqual(140);
}, 600_000);

test('unknown batches are 404, bad queries 400, and a key is required', async () => {
  expect((await stack.api('GET', '/v1/payout-batches/nope-nope')).status).toBe(404);
  expect((await stack.api('POST', '/v1/payout-batches/nope-nope/cancel')).status).toBe(404);
  const list = batchItems('query', 1);
  const { body } = await stack.api<{ batchId: string }>('POST', '/v1/payout-batches', { items: list });
  expect((await stack.api('GET', `/v1/payout-batches/${body.batchId}/items?limit=0`)).status).toBe(400);
  expect((await stack.api('GET', `/v1/payout-batches/${body.batchId}/items?cursor=bogus`)).status).toBe(400);
  const malformed = await stack.api('POST', '/v1/payout-batches', '{"items": [{"externalId": "x"},');
  expect([malformed.status, malformed.body.code]).toEqual([400, 'MALFORMED_JSON']);
  const anonymous = await fetch(`${stack.apiUrl}/v1/payout-batches/${body.batchId}`);
  expect(anonymous.status).toBe(401);
  await waitDone(body.batchId);
});
