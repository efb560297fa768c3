/**
 * Charges, card payments and infractions listed from the engine's own database, through the running stack:
 * a just-created charge or card payment is listed in the create's own round trip (no lag), each moves in the
 * list as its workflow moves, the filters narrow it, and the list still answers after Temporal has deleted
 * the workflow (as retention does), and so does its GET (`source: 'store'`, without the payer or the card). A cursor walk over rows of every kind sees one kind, newest first, with
 * no duplicate and no gap.
 */
import { randomBytes } from 'node:crypto';
import { cardPaymentWorkflowId } from '../../src/lifecycles/card-payment-client';
import { chargeWorkflowId } from '../../src/lifecycles/charge-client';
import { infractionWorkflowId } from '../../src/lifecycles/infraction-client';
import { pollUntil } from '../../src/util/poll';
import type { CardPaymentResponse } from '../../src/api/card-payments/schemas';
import type { ChargeResponse } from '../../src/api/charges/schemas';
import type { InfractionResponse } from '../../src/api/infractions/schemas';
import { createCardPayment } from '../card-payments/card-checkout';
import { deleteWorkflow } from '../helpers/delete-workflow';
import { startEngineHarness } from '../helpers/engine-harness';
import { forThisFile } from '../helpers/for-this-file';
import { bulkInto, expectEachOnceInOrder, type BulkTable } from '../helpers/list-pages';
import { openInfractionOnPaidCashIn, waitForInfraction } from '../helpers/infractions';
import { recordHistory } from '../helpers/record-history';
import { waitForWorkflowClosed } from '../helpers/workflow-reset';

interface ListItem {
  externalId?: string;
  infractionId?: string;
  status: string;
  amount?: number;
  deadline?: string;
  createdAt: string;
  updatedAt: string;
}
interface ListPage {
  data: ListItem[];
  nextCursor?: string;
}

const stack = forThisFile(() =>
  startEngineHarness({
    CARD_CHECKOUT_TTL_MS: '4000',
    CARD_AUTHORIZE_DEADLINE_MS: '1000',
    SANDBOX_INFRACTION_RESOLVE_MS: '0',
  }),
);

const idOf = (item: ListItem): string | undefined => item.externalId ?? item.infractionId;

/** The list's item for `id` among the newest 500 of the query. */
async function listed(path: string, id: string): Promise<ListItem | undefined> {
  const page = await stack.api<ListPage>('GET', `${path}${path.includes('?') ? '&' : '?'}limit=500`);
  expect(page.status).toBe(200);
  return page.body.data.find((item) => idOf(item) === id);
}

const listedAs = (path: string, id: string, status: string) =>
  pollUntil(async () => ((await listed(path, id))?.status === status ? true : undefined), {
    timeoutMs: 60_000,
    intervalMs: 200,
    description: `${id} listed ${status} in ${path}`,
  });

test('a charge is listed as soon as it is created, PAID once paid, by status and creation time, and after its workflow is deleted', async () => {
  const id = `listed${randomBytes(5).toString('hex')}`;
  const before = new Date().toISOString();
  const created = await stack.api('POST', '/v1/charges', {
    externalId: id,
    amount: 150.25,
    payer: { name: 'Ana Souza', document: '529.982.247-25', email: 'ana@example.com' },
  });
  expect(created.status).toBe(201);
  expect(await listed('/v1/charges', id)).toMatchObject({ externalId: id, status: 'PENDING', amount: 150.25 });

  expect((await stack.admin('POST', `/sandbox/cash-ins/${id}/pay`, { payerName: 'Ana Souza' })).status).toBe(200);
  await listedAs('/v1/charges?status=PAID', id, 'PAID');
  expect(await listed('/v1/charges?status=PENDING', id)).toBeUndefined();
  expect(await listed(`/v1/charges?createdFrom=${encodeURIComponent(before)}`, id)).toMatchObject({ status: 'PAID' });
  expect(await listed(`/v1/charges?createdTo=${encodeURIComponent(before)}`, id)).toBeUndefined();
  // A charge is not a card payment.
  expect(await listed('/v1/card-payments', id)).toBeUndefined();
  // Still open (a paid charge watches for refunds): recorded as it stands, as charge-paid is.
  await recordHistory(stack.temporal.client, chargeWorkflowId(id), 'charge-listed-paid');

  await deleteWorkflow(stack.temporal.client, chargeWorkflowId(id));
  expect(await listed('/v1/charges?status=PAID', id)).toMatchObject({ externalId: id, status: 'PAID', amount: 150.25 });
  // Its GET answers from the engine's database, without the payer.
  const read = await stack.api<ChargeResponse>('GET', `/v1/charges/${id}`);
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ externalId: id, source: 'store', status: 'PAID', amount: 150.25, refunds: [] });
  expect(read.body.transitions.map((transition) => transition.to)).toEqual(['PENDING', 'PAID']);
  expect(read.body.payerName).toBeUndefined();
}, 180_000);

test('a card payment is listed as soon as it is created, EXPIRED when nobody paid, and after its workflow is deleted', async () => {
  const created = await createCardPayment(stack, 'listed');
  const id = created.externalId;
  expect(await listed('/v1/card-payments', id)).toMatchObject({
    externalId: id,
    status: 'AWAITING_CARD',
    amount: 100.1,
  });

  await listedAs('/v1/card-payments?status=EXPIRED', id, 'EXPIRED');
  expect(await listed('/v1/card-payments?status=AWAITING_CARD', id)).toBeUndefined();
  await waitForWorkflowClosed(stack, cardPaymentWorkflowId(id), 60_000);
  await recordHistory(stack.temporal.client, cardPaymentWorkflowId(id), 'card-payment-listed-expired');

  await deleteWorkflow(stack.temporal.client, cardPaymentWorkflowId(id));
  expect(await listed('/v1/card-payments', id)).toMatchObject({ externalId: id, status: 'EXPIRED', amount: 100.1 });
  const read = await stack.api<CardPaymentResponse>('GET', `/v1/card-payments/${id}`);
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ externalId: id, source: 'store', status: 'EXPIRED', amount: 100.1 });
  expect(read.body.transitions.at(-1)?.to).toBe('EXPIRED');
}, 180_000);

test('an infraction is listed with its amount and deadline once the sync sees it, due before a date, CANCELLED as the provider says, and after its workflow is deleted', async () => {
  const id = await openInfractionOnPaidCashIn(stack, 80);
  const opened = await waitForInfraction(stack, id, ['OPEN', 'DUE_SOON']);
  const item = await pollUntil(() => listed('/v1/infractions', id), {
    timeoutMs: 10_000,
    intervalMs: 100,
    description: `${id} listed`,
  });
  expect(item).toMatchObject({ infractionId: id, status: opened.status, amount: 80, deadline: opened.deadline });
  const deadline = Date.parse(opened.deadline ?? '');
  expect(
    await listed(`/v1/infractions?dueBefore=${encodeURIComponent(new Date(deadline + 1).toISOString())}`, id),
  ).toBeDefined();
  expect(
    await listed(`/v1/infractions?dueBefore=${encodeURIComponent(new Date(deadline).toISOString())}`, id),
  ).toBeUndefined();

  expect((await stack.admin('POST', `/sandbox/infractions/${id}/resolve`, { status: 'CANCELLED' })).status).toBe(200);
  await waitForInfraction(stack, id, ['CANCELLED']);
  await listedAs('/v1/infractions?status=CANCELLED', id, 'CANCELLED');
  await waitForWorkflowClosed(stack, infractionWorkflowId(id), 60_000);
  await recordHistory(stack.temporal.client, infractionWorkflowId(id), 'infraction-listed-cancelled');

  await deleteWorkflow(stack.temporal.client, infractionWorkflowId(id));
  expect(await listed('/v1/infractions?status=CANCELLED', id)).toMatchObject({
    infractionId: id,
    status: 'CANCELLED',
    amount: 80,
  });
  const read = await stack.api<InfractionResponse>('GET', `/v1/infractions/${id}`);
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ infractionId: id, status: 'CANCELLED', amount: 80, deadline: opened.deadline });
  expect(read.body.transitions.at(-1)?.to).toBe('CANCELLED');
}, 180_000);

/** Operations written straight into the read model, each PENDING; the list of charges shows those of kind charge. */
const BULK_OPERATIONS: BulkTable = {
  insertSql:
    "INSERT INTO operations (kind, id, seq, status, amount_cents, deadline, created_at, updated_at) VALUES (?, ?, 0, 'PENDING', ?, NULL, ?, ?)",
  selectSql: "SELECT id FROM operations WHERE kind = 'charge'",
};

test('a list pages one kind newest first in (createdAt, id) order, with no duplicate and no gap, whatever the other kinds hold', async () => {
  // A charge and a card payment of each id, 100 of each kind sharing each millisecond.
  const expected = bulkInto(stack, BULK_OPERATIONS, { count: 3_000, perMs: 100 }, (insert, { n, id, at }) => {
    insert.run('charge', id, 100 + n, at, at);
    insert.run('card_payment', id, 100 + n, at, at);
  });
  await expectEachOnceInOrder<ListItem>(stack, '/v1/charges?limit=97', expected);
});

test.each(['/v1/charges', '/v1/card-payments', '/v1/infractions'])(
  '%s refuses a bad filter naming it: 400 for its shape, 422 for a window or cursor it cannot answer',
  async (path) => {
    const refused = async (query: string, status: number, code: string): Promise<string[]> => {
      const answer = await stack.api<{ code: string; issues: { path: string }[] }>('GET', `${path}${query}`);
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status, code });
      return answer.body.issues.map((issue) => issue.path);
    };
    expect(await refused('?status=DONE&createdFrom=yesterday&limit=0', 400, 'VALIDATION_FAILED')).toEqual(
      expect.arrayContaining(['status', 'createdFrom', 'limit']),
    );
    expect(
      await refused('?createdFrom=2026-02-01T00:00:00Z&createdTo=2026-01-01T00:00:00-03:00', 422, 'INVALID_FILTER'),
    ).toEqual(['createdTo']);
    expect(await refused('?cursor=bm90LWEtY3Vyc29y', 422, 'INVALID_CURSOR')).toEqual(['cursor']);
  },
);
