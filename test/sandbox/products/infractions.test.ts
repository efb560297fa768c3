/** MED infractions (endpoints 7 and 8) over HTTP: opening by admin, paging, defense, resolution, refunds through the ledger. */
import { randomBytes } from 'node:crypto';
import { infractionListResponseSchema, infractionSchema } from '../../../src/payment-api/schemas/infractions';
import { INFRACTION_DEFENSE_WINDOW_MS, MED_REFUNDS_ACCOUNT } from '../../../sandbox/products/infractions';
import { pollUntil } from '../../../src/util/poll';
import {
  MERCHANT,
  merchantHeaders,
  RECIPIENT,
  sandboxForThisFile,
  uniqueId,
  withdrawPix,
  type RefusalBody,
} from '../../helpers/sandbox';

const RESOLVE_MS = 3_000;
const recipientHeaders = { ci: RECIPIENT.clientId, cs: RECIPIENT.clientSecret };
type Headers = typeof merchantHeaders;

const { sandbox: sb, receiver } = sandboxForThisFile({
  overrides: { SANDBOX_INFRACTION_RESOLVE_MS: String(RESOLVE_MS) },
});

interface Infraction {
  id: string;
  transactionId: string;
  status: string;
  amount: number;
  createdAt: string;
  defenseDeadline: string;
  [field: string]: unknown;
}
interface Body extends RefusalBody {
  infraction: Infraction;
  data: Infraction[];
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
  entries: { kind: string; lines: { account: string; amountCents: number }[] }[];
  transaction: { transactionId: string };
}

/** A cash-in of `amount` paid by the admin payer; returns the provider id (what infractions refer to). */
async function paidCashIn(amount: number, headers: Headers = merchantHeaders): Promise<string> {
  const transactionId = `MED${randomBytes(8).toString('hex')}`;
  const body = {
    amount,
    payerName: 'Ana Souza',
    payerDocument: '52998224725',
    transactionId,
    projectWebhook: receiver.url,
  };
  expect((await sb.call('POST', '/api/transactions/create', { body, auth: headers })).status).toBe(200);
  expect((await sb.admin('POST', `/sandbox/cash-ins/${transactionId}/pay`, {})).status).toBe(200);
  const checked = await sb.call<Body>('POST', '/api/transactions/check', { body: { transactionId }, auth: headers });
  return checked.body.transaction.transactionId;
}
const open = (body: Record<string, unknown>) =>
  sb.admin<Body>('POST', '/sandbox/infractions', { reason: 'fraud', ...body });
const resolve = (id: string, status: string) =>
  sb.admin<Body>('POST', `/sandbox/infractions/${id}/resolve`, { status });
const list = (query = '', headers: Headers = merchantHeaders) =>
  sb.call<Body>('GET', `/api/meds/infractions/list${query}`, { auth: headers });
const defend = (id: string, body: unknown, headers: Headers = merchantHeaders) =>
  sb.call<Body>('POST', `/api/meds/infractions/${id}/defense`, { body, auth: headers });
const defense = (analise: string) => ({
  analise,
  justificativa: 'The buyer received the goods; tracking attached.',
  proofs: ['https://example.com/proof.pdf'],
});
const current = async (id: string) => (await sb.admin<Body>('GET', `/sandbox/infractions/${id}`)).body.infraction;
const waitForStatus = (id: string, status: string) =>
  pollUntil(
    async () => {
      const infraction = await current(id);
      return infraction.status === status ? infraction : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 20, description: `infraction ${id} to be ${status}` },
  );

describe('opening', () => {
  test('the admin opens one on a PAID cash-in: WAITING_PSP, amount defaulting to the transaction, deadline 7 days later', async () => {
    const transactionId = await paidCashIn(80);
    const answer = await open({ transactionId });
    expect(answer.status).toBe(200);
    const infraction = infractionSchema.parse(answer.body.infraction);
    expect(infraction).toMatchObject({
      id: expect.stringMatching(/^med_/),
      transactionId,
      status: 'WAITING_PSP',
      reason: 'fraud',
      amount: 80,
    });
    expect(infraction.endToEndId).toMatch(/^E/);
    expect(Date.parse(infraction.defenseDeadline ?? '') - Date.parse(infraction.createdAt ?? '')).toBe(
      INFRACTION_DEFENSE_WINDOW_MS,
    );
    const listed = await list();
    expect(listed.body.data[0]).toEqual(infractionSchema.parse(listed.body.data[0]));
    expect(listed.body.data[0]?.id).toBe(infraction.id);
  });

  test('is refused for a charge not yet paid, a withdrawal, an unknown id, an amount above the transaction, a second live claim, and without the admin token', async () => {
    const pendingId = `PEND${randomBytes(6).toString('hex')}`;
    await sb.call('POST', '/api/transactions/create', {
      body: {
        amount: 10,
        payerName: 'Ana',
        payerDocument: '52998224725',
        transactionId: pendingId,
        projectWebhook: receiver.url,
      },
      auth: merchantHeaders,
    });
    expect((await open({ transactionId: pendingId })).body.code).toBe('TRANSACTION_NOT_ELIGIBLE');
    const token = await sb.login();
    const withdrawalId = uniqueId('wd');
    await withdrawPix(sb, token, withdrawalId, receiver.url);
    const onWithdrawal = await open({
      transactionId: (
        await sb.call<Body>('POST', '/api/transactions/check', {
          body: { transactionId: withdrawalId },
          auth: merchantHeaders,
        })
      ).body.transaction.transactionId,
    });
    expect([onWithdrawal.status, onWithdrawal.body.code]).toEqual([409, 'TRANSACTION_NOT_ELIGIBLE']);
    expect((await open({ transactionId: 'ci_nothing' })).status).toBe(404);

    const paid = await paidCashIn(20);
    const tooMuch = await open({ transactionId: paid, amount: 20.01 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.issues.map((issue) => issue.path)).toEqual(['amount']);
    expect((await open({ transactionId: paid, amount: 5 })).status).toBe(200);
    const second = await open({ transactionId: paid });
    expect([second.status, second.body.code]).toEqual([409, 'INFRACTION_EXISTS']);
    expect(
      (
        await sb.call('POST', '/sandbox/infractions', {
          body: { transactionId: paid, reason: 'x' },
          auth: merchantHeaders,
        })
      ).status,
    ).toBe(401);
  });
});

describe('listing', () => {
  test('pages newest first within page ≥ 1 and perPage 1..100; a page past the end is empty', async () => {
    const before = (await list('', recipientHeaders)).body.total;
    const opened: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const transactionId = await paidCashIn(10 + index, recipientHeaders);
      opened.push((await open({ transactionId })).body.infraction.id);
    }
    const total = before + 5;
    const first = await list('?page=1&perPage=2', recipientHeaders);
    expect(first.status).toBe(200);
    expect(infractionListResponseSchema.parse(first.body)).toMatchObject({
      page: 1,
      perPage: 2,
      total,
      totalPages: Math.ceil(total / 2),
    });
    expect(first.body.data.map((infraction) => infraction.id)).toEqual([opened[4], opened[3]]);
    expect((await list('?page=2&perPage=2', recipientHeaders)).body.data.map((infraction) => infraction.id)).toEqual([
      opened[2],
      opened[1],
    ]);
    const past = await list(`?page=${Math.ceil(total / 2) + 1}&perPage=2`, recipientHeaders);
    expect(past.body).toMatchObject({ data: [], total });
    expect((await list('?page=999999999&perPage=100', recipientHeaders)).body.data).toEqual([]);
    expect((await list('', recipientHeaders)).body).toMatchObject({ page: 1, perPage: 20 });
    // Each client sees its own infractions only.
    expect((await list('?perPage=100')).body.data.some((infraction) => opened.includes(infraction.id))).toBe(false);
  });

  test('out-of-bounds paging is 400 with the field path', async () => {
    for (const [query, path] of [
      ['?page=0', 'page'],
      ['?page=abc', 'page'],
      ['?perPage=0', 'perPage'],
      ['?perPage=101', 'perPage'],
      ['?perPage=1.5', 'perPage'],
    ] as const) {
      const answer = await list(query);
      expect([query, answer.status, answer.body.code, answer.body.issues.map((issue) => issue.path)]).toEqual([
        query,
        400,
        'VALIDATION_FAILED',
        [path],
      ]);
    }
  });
});

describe('defense and resolution', () => {
  test('a NEGADA defense is recorded at once, resolved REJECTED after SANDBOX_INFRACTION_RESOLVE_MS, and moves no money', async () => {
    const { id } = (await open({ transactionId: await paidCashIn(50) })).body.infraction;
    const before = sb.balance('merchant');
    const answer = await defend(id, defense('NEGADA'));
    expect(answer.status).toBe(200);
    expect(infractionSchema.parse(answer.body.infraction)).toMatchObject({
      id,
      status: 'WAITING_PSP',
      analise: 'NEGADA',
      justificativa: defense('NEGADA').justificativa,
      proofs: ['https://example.com/proof.pdf'],
      defendedAt: expect.any(String),
    });
    const again = await defend(id, defense('ACEITA'));
    expect([again.status, again.body.code]).toEqual([422, 'INFRACTION_NOT_WAITING_PSP']);

    sb.advanceClock(RESOLVE_MS + 1);
    const resolved = await waitForStatus(id, 'REJECTED');
    expect(resolved.resolvedAt).toEqual(expect.any(String));
    expect(sb.balance('merchant')).toBe(before);
    const late = await defend(id, defense('NEGADA'));
    expect([late.status, late.body.code]).toEqual([422, 'INFRACTION_NOT_WAITING_PSP']);
  });

  test('an ACEITA defense resolves ACCEPTED and returns the amount: merchant → med-refunds; the ledger still balances', async () => {
    const { id, transactionId } = (await open({ transactionId: await paidCashIn(80), amount: 30 })).body.infraction;
    const before = { merchant: sb.balance('merchant'), refunds: sb.sandbox.ledger.balance(MED_REFUNDS_ACCOUNT) };
    expect((await defend(id, { analise: 'ACEITA', justificativa: 'We agree.' })).status).toBe(200);
    sb.advanceClock(RESOLVE_MS + 1);
    const accepted = await waitForStatus(id, 'ACCEPTED');
    expect(accepted).toMatchObject({ refundedAmount: 30, unrecoveredAmount: 0, resolvedBy: 'defense' });
    expect(sb.balance('merchant')).toBe(before.merchant - 3000);
    expect(sb.sandbox.ledger.balance(MED_REFUNDS_ACCOUNT)).toBe(before.refunds + 3000);
    const ledger = await sb.admin<Body>('GET', `/sandbox/ledger?externalId=${id}`);
    expect(ledger.body.entries).toEqual([
      expect.objectContaining({
        kind: 'infraction.refund',
        operationId: transactionId,
        lines: [
          { account: 'user:merchant', amountCents: -3000 },
          { account: MED_REFUNDS_ACCOUNT, amountCents: 3000 },
        ],
      }),
    ]);
    expect(sb.ledgerBalances()).toBe(true);
  });

  test('an invalid defense is 400 with the field path and changes nothing', async () => {
    const { id } = (await open({ transactionId: await paidCashIn(15) })).body.infraction;
    const cases: [unknown, string[]][] = [
      [{ ...defense('aceita') }, ['analise']],
      [{ analise: 'PARCIAL', justificativa: 'x' }, ['analise']],
      [{ analise: 'NEGADA' }, ['justificativa']],
      [{ analise: 'NEGADA', justificativa: ' ' }, ['justificativa']],
      [{ analise: 'NEGADA', justificativa: 'x'.repeat(2001) }, ['justificativa']],
      [{ analise: 'NEGADA', justificativa: 'x', proofs: ['ftp://proof'] }, ['proofs.0']],
      [{ analise: 'NEGADA', justificativa: 'x', extra: true }, ['']],
    ];
    for (const [body, paths] of cases) {
      const answer = await defend(id, body);
      expect([answer.status, answer.body.issues?.map((issue) => issue.path)]).toEqual([400, paths]);
    }
    expect(await current(id)).toMatchObject({ status: 'WAITING_PSP' });
    expect((await current(id)).defendedAt).toBeUndefined();
  });

  test("an unknown infraction, or another client's, is 404", async () => {
    const { id } = (await open({ transactionId: await paidCashIn(12) })).body.infraction;
    expect((await defend('med_unknown', defense('NEGADA'))).status).toBe(404);
    expect((await defend(id, defense('NEGADA'), recipientHeaders)).status).toBe(404);
  });

  test('the admin can cancel a WAITING_PSP infraction (no money moves); a resolved one cannot be resolved or defended again', async () => {
    const { id } = (await open({ transactionId: await paidCashIn(25) })).body.infraction;
    const before = sb.balance('merchant');
    const cancelled = await resolve(id, 'CANCELLED');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.infraction).toMatchObject({ status: 'CANCELLED', resolvedAt: expect.any(String) });
    expect(sb.balance('merchant')).toBe(before);
    expect((await resolve(id, 'ACCEPTED')).body.code).toBe('INFRACTION_FINAL');
    expect((await defend(id, defense('NEGADA'))).body.code).toBe('INFRACTION_NOT_WAITING_PSP');
    expect((await resolve(id, 'LOST')).status).toBe(400);
  });

  test('an accepted refund never takes the merchant below zero: it is capped and the rest recorded as unrecoveredAmount', async () => {
    const transactionId = await paidCashIn(100, recipientHeaders);
    // Leave the recipient 9.00: send everything else to the merchant.
    const keep = 900;
    const send = sb.balance('recipient') - keep;
    const transfer = await sb.call('POST', '/api/transactions/internal', {
      body: { email: 'merchant@sandbox.test', amount: send / 100 },
      auth: recipientHeaders,
    });
    expect(transfer.status).toBe(200);
    expect(sb.balance('recipient')).toBe(keep);

    const { id } = (await open({ transactionId })).body.infraction;
    const accepted = await resolve(id, 'ACCEPTED');
    expect(accepted.status).toBe(200);
    expect(accepted.body.infraction).toMatchObject({
      status: 'ACCEPTED',
      amount: 100,
      refundedAmount: 9,
      unrecoveredAmount: 91,
      resolvedBy: 'admin',
    });
    expect(sb.balance('recipient')).toBe(0);
    expect(sb.ledgerBalances()).toBe(true);
  });

  test('no defense by the deadline: the claim stands (ACCEPTED) and the amount is returned', async () => {
    const { id } = (await open({ transactionId: await paidCashIn(40), amount: 40 })).body.infraction;
    const before = sb.balance('merchant');
    sb.advanceClock(INFRACTION_DEFENSE_WINDOW_MS + 1);
    const accepted = await waitForStatus(id, 'ACCEPTED');
    expect(accepted).toMatchObject({ resolvedBy: 'deadline', refundedAmount: 40 });
    expect(accepted.defendedAt).toBeUndefined();
    // Other WAITING_PSP claims of this file reached their deadline too; this one returned its 40.00 among them.
    expect(sb.balance('merchant')).toBeLessThanOrEqual(before - 4000);
    expect(sb.ledgerBalances()).toBe(true);
  });
});

describe('credentials', () => {
  test('both endpoints refuse missing or wrong ci/cs headers, and a Bearer token, with 401', async () => {
    const token = await sb.login();
    const answers = await Promise.all([
      sb.call<Body>('GET', '/api/meds/infractions/list'),
      list('', { ci: MERCHANT.clientId, cs: 'wrong' }),
      sb.call<Body>('GET', '/api/meds/infractions/list', { auth: { bearer: token } }),
      sb.call<Body>('POST', '/api/meds/infractions/med_x/defense', { body: defense('NEGADA') }),
      defend('med_x', defense('NEGADA'), { ci: 'nobody', cs: MERCHANT.clientSecret }),
    ]);
    expect(answers.map((answer) => [answer.status, answer.body.code])).toEqual(
      Array.from({ length: 5 }, () => [401, 'UNAUTHORIZED']),
    );
  });
});
