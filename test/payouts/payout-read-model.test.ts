/**
 * Payouts from the engine's own database, through the running stack: listed as soon as they are accepted
 * and as they move (review included), with the PIX key masked; still answered, listed and with their
 * events after Temporal has forgotten the workflow (deleted, as retention does); 100,000 of them paged
 * newest first with no duplicate and no gap; and a day's totals in the merchant's time zone.
 */
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { engineDatabasePath } from '../../src/db/database';
import { openSqlite } from '../../src/db/sqlite';
import { payoutWorkflowId } from '../../src/lifecycles/payout-client';
import { pollUntil } from '../../src/util/poll';
import { deleteWorkflow as deleteWorkflowExecution } from '../helpers/delete-workflow';
import { startEngineHarness } from '../helpers/engine-harness';
import { bulkInto, expectEachOnceInOrder, type BulkTable } from '../helpers/list-pages';
import { newExternalId, REVIEW_WITHIN_SECONDS, waitForPayout } from '../helpers/payouts';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';
import { forThisFile } from '../helpers/for-this-file';

interface ListItem {
  externalId: string;
  status: string;
  method: string;
  amount: number;
  fee?: number;
  pixKey?: string;
  keyType?: string;
  batchId?: string;
  createdAt: string;
}
interface ListPage {
  data: ListItem[];
  nextCursor?: string;
}

const stack = forThisFile(() => startEngineHarness(REVIEW_WITHIN_SECONDS));
afterEach(() => stack.admin('DELETE', '/sandbox/faults'));

const submit = (id: string, amount: number) =>
  stack.api('POST', '/v1/payouts', { externalId: id, amount, pixKey: '52998224725', keyType: 'CPF' });

/** The list's item for `id`, among the newest payouts of the status. */
async function listed(id: string, status: string): Promise<ListItem | undefined> {
  const page = await stack.api<ListPage>('GET', `/v1/payouts?status=${status}&limit=500`);
  expect(page.status).toBe(200);
  return page.body.data.find((item) => item.externalId === id);
}

const deleteWorkflow = (id: string): Promise<void> =>
  deleteWorkflowExecution(stack.temporal.client, payoutWorkflowId(id));

test('a completed payout whose workflow Temporal deleted still answers GET, the list and its events, with the key masked', async () => {
  const id = newExternalId('kept');
  expect((await submit(id, 25)).status).toBe(202);
  const completed = await waitForPayout(stack, id, ['COMPLETED']);
  expect(completed).toMatchObject({ source: 'workflow', pixKey: '***.982.247-**', keyType: 'CPF' });

  await deleteWorkflow(id);

  const read = await stack.api<PayoutResponse>('GET', `/v1/payouts/${id}`);
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({
    externalId: id,
    source: 'store',
    status: 'COMPLETED',
    amount: 25,
    fee: 1.25,
    total: 26.25,
    pixKey: '***.982.247-**',
  });
  expect(read.body.transitions.map((transition) => transition.to)).toEqual(['RECEIVED', 'SUBMITTED', 'COMPLETED']);

  expect(await listed(id, 'COMPLETED')).toMatchObject({
    externalId: id,
    method: 'pix_key',
    amount: 25,
    fee: 1.25,
    keyType: 'CPF',
    pixKey: '***.982.247-**',
  });
  const whole = await stack.api('GET', '/v1/payouts?limit=500');
  expect(JSON.stringify(whole.body)).not.toContain('52998224725');

  const events = await stack.api<{ data: { type: string; data: Record<string, unknown> }[] }>(
    'GET',
    `/v1/payouts/${id}/events`,
  );
  expect(events.status).toBe(200);
  expect(events.body.data).toEqual([
    expect.objectContaining({
      type: 'payout.completed',
      data: expect.objectContaining({ externalId: id, status: 'COMPLETED', amount: 25 }),
    }),
  ]);
  expect((await stack.api('GET', `/v1/payouts/${newExternalId('never')}/events`)).status).toBe(404);
}, 150_000);

test('a payout is listed from the moment it is accepted, and as NEEDS_REVIEW while it waits for an operator', async () => {
  await stack.admin('PUT', '/sandbox/faults', { errorRate: 1 });
  const id = newExternalId('review-listed');
  expect((await submit(id, 9)).status).toBe(202);
  expect(await listed(id, 'RECEIVED')).toMatchObject({ externalId: id, amount: 9, pixKey: '***.982.247-**' });

  await waitForPayout(stack, id, ['NEEDS_REVIEW']);
  // The row is written by the workflow's step into review (not by a read of the workflow).
  await pollUntil(
    () => stack.readModel.findPayout(id).then((stored) => (stored?.view.state === 'NEEDS_REVIEW' ? true : undefined)),
    {
      timeoutMs: 10_000,
      intervalMs: 100,
      description: `${id} in review in the read model`,
    },
  );
  expect(await listed(id, 'NEEDS_REVIEW')).toMatchObject({ externalId: id, status: 'NEEDS_REVIEW' });

  await stack.admin('DELETE', '/sandbox/faults');
  const cancelled = await stack.api<PayoutResponse>('POST', `/v1/payouts/${id}/cancel`, { reason: 'provider outage' });
  expect(cancelled.body.status).toBe('CANCELLED');
  await pollUntil(() => listed(id, 'CANCELLED'), {
    timeoutMs: 10_000,
    intervalMs: 100,
    description: `${id} listed as CANCELLED`,
  });
  await recordHistory(stack.temporal.client, payoutWorkflowId(id), currentPayoutHistory('review-recorded-cancelled'));
});

/** Payouts written straight into the read model, each RECEIVED to a CPF key. */
const BULK_PAYOUTS: BulkTable = {
  insertSql:
    "INSERT INTO payouts (external_id, seq, status, method, batch_id, amount_cents, fee_cents, key_type, destination, view, created_at, updated_at) VALUES (?, 0, 'RECEIVED', 'pix_key', NULL, ?, NULL, 'CPF', '***.982.247-**', ?, ?, ?)",
  selectSql: 'SELECT external_id AS id FROM payouts',
};
/** Such a payout's view, as the read model keeps it beside its columns. */
const receivedView = (externalId: string, amountCents: number): string =>
  JSON.stringify({
    externalId,
    method: 'pix_key',
    state: 'RECEIVED',
    amountCents,
    requestHash: 'h',
    callbacksReceived: 0,
    checksMade: 0,
    transitions: [],
  });

test('100,000 payouts page newest first in (createdAt, externalId) order, with no duplicate and no gap', async () => {
  // 250 payouts share each millisecond, so the id orders ties.
  const expected = bulkInto(stack, BULK_PAYOUTS, { count: 100_000, perMs: 250 }, (insert, { n, id, at }) =>
    insert.run(id, 100 + n, receivedView(id, 100 + n), at, at),
  );
  await expectEachOnceInOrder<ListItem>(stack, '/v1/payouts?limit=500', expected);
});

test("a day's totals count and sum the payouts created on that day in the time zone asked, by status and rail", async () => {
  const db = openSqlite(engineDatabasePath(stack.config.DATA_DIR), { busyTimeoutMs: 10_000 });
  const insert = db.prepare(
    'INSERT INTO payouts (external_id, seq, status, method, batch_id, amount_cents, fee_cents, key_type, destination, view, created_at, updated_at) VALUES (?, 1, ?, ?, NULL, ?, ?, NULL, NULL, ?, ?, ?)',
  );
  // 2031-05-20 in São Paulo (UTC-3) runs from 03:00Z to 03:00Z the next day.
  const rows: [string, string, string, number, number | null, string][] = [
    ['day-before', 'COMPLETED', 'pix_key', 1000, 50, '2031-05-20T02:59:59.999Z'],
    ['day-first', 'COMPLETED', 'pix_key', 2550, 128, '2031-05-20T03:00:00.000Z'],
    ['day-second', 'COMPLETED', 'pix_key', 1, 1, '2031-05-20T15:00:00.000Z'],
    ['day-failed', 'FAILED', 'internal', 700, null, '2031-05-21T02:59:59.999Z'],
    ['day-after', 'COMPLETED', 'pix_key', 5, 0, '2031-05-21T03:00:00.000Z'],
  ];
  for (const [id, status, method, amount, fee, at] of rows) {
    const view = JSON.stringify({
      externalId: id,
      method,
      state: status,
      amountCents: amount,
      requestHash: 'h',
      callbacksReceived: 0,
      checksMade: 0,
      transitions: [],
    });
    insert.run(id, status, method, amount, fee, view, Date.parse(at), Date.parse(at));
  }
  db.close();

  const summary = await stack.api(
    'GET',
    '/v1/payouts/summary?from=2031-05-20&to=2031-05-20&timeZone=America/Sao_Paulo',
  );
  expect(summary.status).toBe(200);
  expect(summary.body).toEqual({
    from: '2031-05-20',
    to: '2031-05-20',
    timeZone: 'America/Sao_Paulo',
    createdFrom: '2031-05-20T03:00:00.000Z',
    createdTo: '2031-05-21T03:00:00.000Z',
    total: { count: 3, amount: 32.51, fee: 1.29 },
    byStatus: [
      { status: 'COMPLETED', count: 2, amount: 25.51, fee: 1.29 },
      { status: 'FAILED', count: 1, amount: 7, fee: 0 },
    ],
    byMethod: [
      { method: 'pix_key', count: 2, amount: 25.51, fee: 1.29 },
      { method: 'internal', count: 1, amount: 7, fee: 0 },
    ],
    byStatusAndMethod: [
      { status: 'COMPLETED', method: 'pix_key', count: 2, amount: 25.51, fee: 1.29 },
      { status: 'FAILED', method: 'internal', count: 1, amount: 7, fee: 0 },
    ],
  });
  const inUtc = await stack.api<{ total: unknown }>(
    'GET',
    '/v1/payouts/summary?from=2031-05-20&to=2031-05-20&timeZone=UTC',
  );
  expect(inUtc.body.total).toEqual({ count: 3, amount: 35.51, fee: 1.79 });
});

// Each bad filter with the status, code and parameters its refusal names (the first: at least these four): 400 for
// its shape, 422 for what the shape cannot say.
test.each<[query: string, status: number, code: string, paths: unknown]>([
  [
    '/v1/payouts?status=DONE&method=boleto&createdFrom=yesterday&limit=0',
    400,
    'VALIDATION_FAILED',
    expect.arrayContaining(['status', 'method', 'createdFrom', 'limit']),
  ],
  ['/v1/payouts/summary?to=2026-01-01&timeZone=Sao%20Paulo', 400, 'VALIDATION_FAILED', ['from', 'timeZone']],
  [
    '/v1/payouts?createdFrom=2026-02-01T00:00:00Z&createdTo=2026-01-01T00:00:00-03:00',
    422,
    'INVALID_FILTER',
    ['createdTo'],
  ],
  ['/v1/payouts?cursor=bm90LWEtY3Vyc29y', 422, 'INVALID_CURSOR', ['cursor']],
  ['/v1/payouts/summary?from=2026-01-01&to=2026-01-02&timeZone=America/Sao_Paolo', 422, 'INVALID_FILTER', ['timeZone']],
  ['/v1/payouts/summary?from=2026-01-02&to=2026-01-01', 422, 'INVALID_FILTER', ['to']],
  ['/v1/payouts/summary?from=2025-01-01&to=2026-01-02', 422, 'INVALID_FILTER', ['to']],
])('a list or summary asked %s is refused %d %s, naming each bad parameter', async (query, status, code, paths) => {
  const answer = await stack.api<{ code: string; issues: { path: string }[] }>('GET', query);
  expect({ status: answer.status, code: answer.body.code }).toEqual({ status, code });
  expect(answer.body.issues.map((issue) => issue.path)).toEqual(paths);
});
