/** PIX cash-in (endpoint 10) and deposit (endpoint 6) over HTTP: the QR code, the payer, expiry, split, idempotency, credentials. */
import { randomBytes } from 'node:crypto';
import { crc16 } from '../../doubles/double-brcode';
import { tlv } from '../../helpers/emv-reader';
import { cashInCallbackSchema } from '../../../src/payment-api/schemas/cash-in';
import { parseBrCode } from '../../../src/pix/brcode';
import { CASH_IN_MERCHANT_CITY, cashInTxid } from '../../../sandbox/products/cash-in';
import { pollUntil } from '../../../src/util/poll';
import {
  MERCHANT,
  merchantHeaders,
  RECIPIENT,
  sandboxForThisFile,
  uniqueId,
  withdrawPix,
  type Credentials,
  type RefusalBody,
} from '../../helpers/sandbox';

const EXPIRY_MS = 60_000;

const {
  sandbox: sb,
  receiver,
  token,
} = sandboxForThisFile({ overrides: { SANDBOX_CASH_IN_EXPIRY_MS: String(EXPIRY_MS) } });

interface Body extends RefusalBody {
  qrCodeResponse: { transactionId: string; status: string; qrcode: string; amount: number; expiresAt: string };
  transaction: {
    transactionId: string;
    transactionState: string;
    transactionType: string;
    transactionMethod: string;
    value: number;
    fee: number;
  };
  operations: { transactionId: string }[];
  entries: { kind: string; lines: { account: string; amountCents: number }[] }[];
}

/** A client id that is already a valid txid (letters and digits, at most 25). */
const alnumId = (): string => `CI${randomBytes(8).toString('hex')}`;
const chargeBody = (transactionId: string, overrides: Record<string, unknown> = {}) => ({
  amount: 150.5,
  payerName: 'Ana Souza',
  payerDocument: '52998224725',
  transactionId,
  projectWebhook: receiver.url,
  ...overrides,
});
const create = (body: unknown, auth: Credentials = merchantHeaders) =>
  sb.call<Body>('POST', '/api/transactions/create', { body, auth });
const deposit = (body: unknown) => sb.call<Body>('POST', '/api/payments/deposit', { body, auth: { bearer: token() } });
const pay = (id: string, body: unknown = {}) =>
  sb.admin<Body>('POST', `/sandbox/cash-ins/${encodeURIComponent(id)}/pay`, body);
const check = (id: string, auth = merchantHeaders) =>
  sb.call<Body>('POST', '/api/transactions/check', { body: { transactionId: id }, auth });
const callbacksFor = (id: string) => receiver.received.filter((callback) => callback.payload.transactionId === id);
const waitForCallbacks = (id: string, count: number) =>
  pollUntil(() => (callbacksFor(id).length >= count ? callbacksFor(id) : undefined), {
    timeoutMs: 10_000,
    intervalMs: 20,
    description: `${count} callback(s) of ${id}`,
  });

describe('creating a charge', () => {
  test('answers PENDING with a BR Code that carries the amount, txid, merchant name and city, and a valid CRC', async () => {
    const id = alnumId();
    const before = sb.balance('merchant');
    const askedAt = Date.now();
    const answer = await create(chargeBody(id, { description: 'Pedido 42' }));
    const answeredAt = Date.now();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      message: expect.any(String),
      qrCodeResponse: {
        transactionId: id,
        status: 'PENDING',
        qrcode: expect.any(String),
        amount: 150.5,
        expiresAt: expect.any(String),
      },
    });
    const { qrcode, expiresAt } = answer.body.qrCodeResponse;
    // Set while the request was being answered, however long that took.
    expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(askedAt + EXPIRY_MS);
    expect(Date.parse(expiresAt)).toBeLessThanOrEqual(answeredAt + EXPIRY_MS);

    const parsed = parseBrCode(qrcode);
    expect(parsed).toMatchObject({
      amountCentavos: 15050,
      txid: id,
      merchantName: 'Sandbox Merchant',
      merchantCity: CASH_IN_MERCHANT_CITY,
      pixKey: 'merchant@sandbox.test',
      description: 'Pedido 42',
      pointOfInitiation: '12',
    });

    const fields = tlv(qrcode);
    expect([...fields.keys()][0]).toBe('00');
    expect([...fields.keys()].at(-1)).toBe('63');
    expect(fields.get('00')).toBe('01');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('58')).toBe('BR');
    expect(fields.get('54')).toBe('150.50');
    expect(fields.get('59')).toBe('Sandbox Merchant');
    expect(fields.get('60')).toBe('SAO PAULO');
    expect(tlv(fields.get('26') ?? '').get('00')).toBe('br.gov.bcb.pix');
    expect(tlv(fields.get('62') ?? '').get('05')).toBe(id);
    expect(fields.get('63')).toBe(crc16(qrcode.slice(0, -4)));

    const checked = await check(id);
    expect(checked.body.transaction).toMatchObject({
      transactionState: 'PENDENTE',
      transactionType: 'DEPOSITO',
      transactionMethod: 'PIX',
      value: 150.5,
      fee: 1.51,
    });
    expect(sb.balance('merchant')).toBe(before);
  });

  test('a transactionId that is not a txid gets a derived one: letters and digits, at most 25, the same every time', async () => {
    const id = `order:2024-11.${'x'.repeat(30)}-${randomBytes(4).toString('hex')}`;
    const answer = await create(chargeBody(id));
    expect(answer.status).toBe(200);
    const txid = parseBrCode(answer.body.qrCodeResponse.qrcode).txid;
    expect(txid).toMatch(/^[A-Za-z0-9]{1,25}$/);
    expect(txid).toBe(cashInTxid(id));
    expect(cashInTxid(id)).toBe(cashInTxid(`${id}`));
    expect(cashInTxid(`${id}-other`)).not.toBe(txid);
  });

  test('bad input is 400 with each field path and creates nothing', async () => {
    const id = alnumId();
    const answer = await create({
      ...chargeBody(id),
      amount: 1.005,
      payerDocument: '123',
      projectWebhook: 'ftp://x',
      surprise: true,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_FAILED');
    expect(answer.body.issues.map((issue) => issue.path).sort()).toEqual([
      '',
      'amount',
      'payerDocument',
      'projectWebhook',
    ]);
    expect((await check(id)).status).toBe(404);
  });

  test('the same transactionId and body is the same charge on either endpoint; another body, or an id of another operation, is 409', async () => {
    const id = alnumId();
    const first = await create(chargeBody(id));
    const again = await create(chargeBody(id));
    const viaDeposit = await deposit(chargeBody(id));
    expect(again.body.qrCodeResponse).toEqual(first.body.qrCodeResponse);
    expect(viaDeposit.body.qrCodeResponse).toEqual(first.body.qrCodeResponse);

    const conflict = await create(chargeBody(id, { amount: 151 }));
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await deposit(chargeBody(id, { payerName: 'Someone Else' }))).status).toBe(409);
    const operations = await sb.admin<Body>('GET', `/sandbox/operations?externalId=${id}`);
    expect(operations.body.operations).toHaveLength(1);

    const withdrawalId = uniqueId('wd-then-ci');
    expect((await withdrawPix(sb, token(), withdrawalId, receiver.url)).status).toBe(200);
    const reused = await create(chargeBody(withdrawalId));
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_CONFLICT');
  });
});

describe('paying a charge', () => {
  test('credits amount minus the 1 % fee once, sends a signed PAID callback, and a second payment is refused', async () => {
    const id = alnumId();
    await create(chargeBody(id));
    const before = sb.balance('merchant');
    const paid = await pay(id, { payerName: 'João Pagador' });
    expect(paid.status).toBe(200);
    expect(paid.body.qrCodeResponse).toMatchObject({ transactionId: id, status: 'PAID' });
    // 150.50 - 1 % (1.505 → 1.51 half-up) = 148.99
    expect(sb.balance('merchant')).toBe(before + 14899);

    const [callback] = await waitForCallbacks(id, 1);
    expect(callback?.verified).toBe(true);
    const payload = cashInCallbackSchema.parse(callback?.payload);
    expect(payload).toMatchObject({
      transactionId: id,
      status: 'PAID',
      amount: 150.5,
      type: 'Deposit',
      payerName: 'João Pagador',
    });
    expect(payload.endToEndId).toMatch(/^E\d{20}[0-9a-f]{11}$/);
    expect(Date.parse(payload.paidAt ?? '')).not.toBeNaN();

    const twice = await pay(id);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('OPERATION_FINAL');
    expect(sb.balance('merchant')).toBe(before + 14899);

    const ledger = await sb.admin<Body>('GET', `/sandbox/ledger?externalId=${id}`);
    expect(ledger.body.entries).toHaveLength(1);
    expect(ledger.body.entries[0]?.lines).toEqual(
      expect.arrayContaining([
        { account: 'pix-in', amountCents: -15050 },
        { account: 'user:merchant', amountCents: 14899 },
        { account: 'fees', amountCents: 151 },
      ]),
    );
    expect((await check(id)).body.transaction.transactionState).toBe('COMPLETO');
    expect((await create(chargeBody(id))).body.qrCodeResponse.status).toBe('PAID');
    expect(sb.ledgerBalances()).toBe(true);
  });

  test('a split gives splitTax % of the credit to the split user (half-up), the rest to the merchant', async () => {
    const id = alnumId();
    const answer = await create(chargeBody(id, { amount: 100, splitUser: 'RECIPIENT@sandbox.test', splitTax: 33.33 }));
    expect(answer.status).toBe(200);
    const merchantBefore = sb.balance('merchant');
    const recipientBefore = sb.balance('recipient');
    expect((await pay(answer.body.qrCodeResponse.transactionId)).status).toBe(200);
    // credit 100.00 - 1.00 = 99.00; 33.33 % of 99.00 = 32.9967 → 33.00; merchant keeps 66.00
    expect(sb.balance('recipient')).toBe(recipientBefore + 3300);
    expect(sb.balance('merchant')).toBe(merchantBefore + 6600);
    expect(sb.ledgerBalances()).toBe(true);
  });

  test('an unknown or own splitUser is 422 and creates nothing; a split without its share is 400', async () => {
    const unknown = alnumId();
    const answer = await create(chargeBody(unknown, { splitUser: 'nobody@sandbox.test', splitTax: 10 }));
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      code: 'RECIPIENT_NOT_FOUND',
      issues: [{ path: 'splitUser', message: expect.any(String) }],
    });
    expect((await check(unknown)).status).toBe(404);
    expect((await create(chargeBody(alnumId(), { splitUser: 'merchant@sandbox.test', splitTax: 10 }))).status).toBe(
      422,
    );
    const half = await create(chargeBody(alnumId(), { splitUser: 'recipient@sandbox.test' }));
    expect(half.status).toBe(400);
    expect(half.body.issues.map((issue) => issue.path)).toEqual(['splitTax']);
  });

  test('a deposit (Bearer) is paid by its provider id and reports to projectWebhook like a cash-in', async () => {
    const id = alnumId();
    const created = await deposit(chargeBody(id, { amount: 20 }));
    expect(created.status).toBe(200);
    const providerId = (await check(id)).body.transaction.transactionId;
    expect(providerId).toMatch(/^ci_/);
    const before = sb.balance('merchant');
    expect((await pay(providerId)).status).toBe(200);
    expect(sb.balance('merchant')).toBe(before + 1980);
    const [callback] = await waitForCallbacks(id, 1);
    expect(callback?.payload).toMatchObject({
      transactionId: id,
      status: 'PAID',
      type: 'Deposit',
      payerName: 'Ana Souza',
    });
    expect((await check(providerId)).body.transaction.transactionState).toBe('COMPLETO');
  });

  test('an unknown charge is 404; a bad payer body is 400', async () => {
    expect((await pay('ci_doesnotexist')).status).toBe(404);
    const id = alnumId();
    await create(chargeBody(id));
    const bad = await pay(id, { payerName: '', extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((issue) => issue.path).sort()).toEqual(['', 'payerName']);
  });
});

describe('credentials', () => {
  test('each endpoint refuses missing or wrong credentials with 401 and creates nothing', async () => {
    const id = alnumId();
    const body = chargeBody(id);
    const answers = await Promise.all([
      sb.call<Body>('POST', '/api/transactions/create', { body }),
      create(body, { ci: MERCHANT.clientId, cs: 'wrong-secret' }),
      create(body, { ci: RECIPIENT.clientId, cs: MERCHANT.clientSecret }),
      // ci/cs is not the deposit's scheme; neither is a bad token.
      sb.call<Body>('POST', '/api/payments/deposit', { body, auth: merchantHeaders }),
      sb.call<Body>('POST', '/api/payments/deposit', { body, auth: { bearer: 'not-a-jwt' } }),
      // The admin payer needs the admin token, not a client's.
      sb.call<Body>('POST', `/sandbox/cash-ins/${id}/pay`, { body: {} }),
      sb.call<Body>('POST', `/sandbox/cash-ins/${id}/pay`, { body: {}, auth: { bearer: token() } }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('UNAUTHORIZED');
    }
    expect((await check(id)).status).toBe(404);
  });
});

describe('expiry', () => {
  test('an unpaid charge expires after SANDBOX_CASH_IN_EXPIRY_MS: EXPIRED callback, check FALHA, no longer payable', async () => {
    const id = alnumId();
    await create(chargeBody(id));
    const before = sb.balance('merchant');
    sb.advanceClock(EXPIRY_MS + 1);
    const [callback] = await waitForCallbacks(id, 1);
    expect(callback?.verified).toBe(true);
    expect(cashInCallbackSchema.parse(callback?.payload)).toMatchObject({
      transactionId: id,
      status: 'EXPIRED',
      type: 'Deposit',
      amount: 150.5,
    });
    expect((await check(id)).body.transaction.transactionState).toBe('FALHA');
    expect((await pay(id)).status).toBe(409);
    expect(sb.balance('merchant')).toBe(before);
    expect(sb.ledgerBalances()).toBe(true);
  });
});
