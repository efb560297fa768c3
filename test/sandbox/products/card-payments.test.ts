/** Card payments (endpoints 2 and 3) over HTTP: creation with 3DS, GET, settlement and callback, refusals, test cards, and no card data at rest. */
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cardCallbackSchema } from '../../../src/payment-api/schemas/card';
import type { ThreeDSSessionResponse } from '../../../src/payment-api/schemas/security-module';
import { TEST_CARDS } from '../../../sandbox/products/card-payments';
import { pollUntil } from '../../../src/util/poll';
import { RECIPIENT, startCallbackReceiver, type CallbackReceiver, type RefusalBody } from '../../helpers/sandbox';
import { cardToken, environmentKey, openSession, testCard } from '../shield-helpers';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox';

const SETTLE_MS = 5_000;
const CARD_NUMBER = '4111111111111111';
const CCV = '8642';

let sb: TestSandbox;
let receiver: CallbackReceiver;
let token: string;
let dbDir: string;
let dbPath: string;
beforeAll(async () => {
  dbDir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-card-'));
  dbPath = path.join(dbDir, 'sandbox.sqlite');
  // A long settle delay moved by the test clock: every PENDING read below is deterministic.
  sb = await startTestSandbox({ dbPath, overrides: { SANDBOX_SETTLE_MS: String(SETTLE_MS) } });
  receiver = await startCallbackReceiver();
  token = await sb.login();
});
afterAll(async () => {
  await sb?.stop();
  await receiver?.close();
  if (dbDir) rmSync(dbDir, { recursive: true, force: true });
});

interface Data {
  id: number;
  status: string;
  netValue: number;
  providerReferences: { transactionId: string; customerId: string; cardId: string };
  [field: string]: unknown;
}
interface Body extends RefusalBody {
  data: Data;
  operations: { transactionId: string; details: Record<string, unknown> }[];
  entries: { kind: string; lines: { account: string; amountCents: number }[] }[];
}

const nextYear = String(new Date().getUTCFullYear() + 1);
const paymentBody = (overrides: Record<string, unknown> = {}, card: Record<string, unknown> = {}) => ({
  amount: 100,
  installmentCount: 3,
  dueDate: '2030-01-15',
  clientCallbackUrl: receiver.url,
  externalReference: 'order-1',
  payer: { name: 'Ana Souza', email: 'ana@example.com', document: '52998224725', phone: '11987654321' },
  creditCard: {
    holderName: 'ANA SOUZA',
    number: CARD_NUMBER,
    expiryMonth: '12',
    expiryYear: nextYear,
    ccv: CCV,
    ...card,
  },
  ...overrides,
});
const createPayment = (body: unknown, bearer = token) =>
  sb.call<Body>('POST', '/api/v1/card/payments', { body, auth: { bearer } });
const getPayment = (id: number | string, bearer = token) =>
  sb.call<Body>('GET', `/api/v1/card/payments/${id}`, { auth: { bearer } });
const callbacksFor = (id: number) => receiver.received.filter((callback) => callback.payload.id === id);
const waitForCallback = (id: number) =>
  pollUntil(() => callbacksFor(id)[0], {
    timeoutMs: 10_000,
    intervalMs: 20,
    description: `callback of card payment ${id}`,
  });
const cardOperations = async () =>
  (await sb.admin<Body>('GET', '/sandbox/operations?product=card-payment')).body.operations;

/** A Luhn-valid number from a prefix (the check digit appended). */
function withLuhnDigit(prefix: string): string {
  const digits = [...prefix].map(Number).reverse();
  const sum = digits.reduce((total, digit, index) => {
    const doubled = index % 2 === 0 ? digit * 2 : digit;
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return `${prefix}${(10 - (sum % 10)) % 10}`;
}

describe('a card payment', () => {
  let payment: Data;
  let session: ThreeDSSessionResponse;
  let creditCardToken: string;

  test('is created PENDING with the spec shape: integer id, brand, last4, net of the 3.99 % fee, null URLs', async () => {
    // What the checkout page sends along: the card token and the 3DS result of a session for R$ 100.00 in 3 installments.
    const card = testCard(CARD_NUMBER, { cvv: CCV });
    creditCardToken = cardToken(await environmentKey(sb), card);
    session = (await openSession(sb, { card, amount: 10_000, installments: 3 })).body;
    const answer = await createPayment(
      paymentBody({ creditCardToken }, { sessionId: session.sessionId, threeDS: session.threeDS }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      message: expect.any(String),
      data: {
        id: expect.any(Number),
        status: 'PENDING',
        amount: 100,
        netValue: 96.01,
        brand: 'VISA',
        last4: '1111',
        invoiceUrl: null,
        receiptUrl: null,
        provider: expect.any(String),
        providerReferences: {
          transactionId: expect.any(String),
          customerId: expect.any(String),
          cardId: expect.any(String),
        },
      },
    });
    expect(Number.isInteger(answer.body.data.id)).toBe(true);
    payment = answer.body.data;
  });

  test('GET shows it to its owner only, with the 3DS data kept and no card number or ccv', async () => {
    const answer = await getPayment(payment.id);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      ...payment,
      providerStatus: 'PENDING',
      externalReference: 'order-1',
      installmentCount: 3,
    });
    expect(Date.parse(String(answer.body.data.createdAt))).not.toBeNaN();

    const other = await sb.login(RECIPIENT);
    expect((await getPayment(payment.id, other)).status).toBe(404);
    expect((await getPayment(999_999)).status).toBe(404);
    const notAnId = await getPayment('abc');
    expect(notAnId.status).toBe(400);
    expect(notAnId.body.issues.map((issue) => issue.path)).toEqual(['id']);

    const operation = (await cardOperations()).find((candidate) => candidate.details.paymentId === payment.id);
    expect(operation?.details).toMatchObject({
      brand: 'VISA',
      last4: '1111',
      holderName: 'ANA SOUZA',
      sessionId: session.sessionId,
      cardTokenVerified: true,
      threeDS: session.threeDS,
    });
    expect(JSON.stringify(operation)).not.toContain(CARD_NUMBER);
    expect(JSON.stringify(operation)).not.toContain(CCV);
    // The token opens to the card with the environment's key, which the same database holds: it is not kept either.
    expect(JSON.stringify(operation)).not.toContain(creditCardToken);
  });

  test('settles after SANDBOX_SETTLE_MS to COMPLETED / PAID, credits the net, and sends a signed PAYMENT_UPDATED callback', async () => {
    const before = sb.balance('merchant');
    sb.advanceClock(SETTLE_MS + 1);
    const callback = await waitForCallback(payment.id);
    expect(callback.verified).toBe(true);
    expect(cardCallbackSchema.parse(callback.payload)).toEqual({
      id: payment.id,
      type: 'Card',
      status: 'COMPLETED',
      amount: 100,
      netValue: 96.01,
      brand: 'VISA',
      last4: '1111',
      provider: payment.provider,
      providerTransactionId: payment.providerReferences.transactionId,
      providerCustomerId: payment.providerReferences.customerId,
      providerStatus: 'PAID',
      eventType: 'PAYMENT_UPDATED',
      externalReference: 'order-1',
      updatedAt: expect.any(String),
      note: 'status_updated',
    });
    expect(sb.balance('merchant')).toBe(before + 9601);
    expect((await getPayment(payment.id)).body.data).toMatchObject({ status: 'COMPLETED', providerStatus: 'PAID' });
    expect(sb.ledgerBalances()).toBe(true);
  });

  test('without clientCallbackUrl it still settles; an installment count out of 1..12 is 400', async () => {
    const { clientCallbackUrl: _omitted, ...body } = paymentBody({ amount: 10, installmentCount: 1 });
    const created = await createPayment(body);
    expect(created.status).toBe(200);
    sb.advanceClock(SETTLE_MS + 1);
    await pollUntil(
      async () => ((await getPayment(created.body.data.id)).body.data.status === 'COMPLETED' ? true : undefined),
      {
        timeoutMs: 10_000,
        intervalMs: 20,
        description: 'the payment to complete',
      },
    );
    expect(callbacksFor(created.body.data.id)).toHaveLength(0);
    const tooMany = await createPayment(paymentBody({ installmentCount: 13 }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.issues.map((issue) => issue.path)).toEqual(['installmentCount']);
  });
});

describe('refusals', () => {
  test('a bad card or a missing payer field is refused with the field path, and nothing is stored or credited', async () => {
    const before = { balance: sb.balance('merchant'), payments: (await cardOperations()).length };
    const refusals: [Record<string, unknown>, Record<string, unknown>, number, string, string[]][] = [
      [{}, { number: '4111111111111112' }, 422, 'CARD_REFUSED', ['creditCard.number']],
      [{}, { expiryMonth: '01', expiryYear: '2020' }, 422, 'CARD_REFUSED', ['creditCard.expiryYear']],
      [{}, { number: withLuhnDigit('999999999999999') }, 422, 'CARD_REFUSED', ['creditCard.number']],
      [{}, { number: TEST_CARDS.insufficientFunds }, 422, 'CARD_REFUSED', ['creditCard.number']],
      [
        { payer: { name: 'Ana Souza', email: 'ana@example.com', document: '52998224725' } },
        {},
        400,
        'VALIDATION_FAILED',
        ['payer.phone'],
      ],
      [{}, { ccv: '12' }, 400, 'VALIDATION_FAILED', ['creditCard.ccv']],
    ];
    for (const [overrides, card, status, code, paths] of refusals) {
      const answer = await createPayment(paymentBody(overrides, card));
      expect({
        status: answer.status,
        code: answer.body.code,
        paths: answer.body.issues.map((issue) => issue.path),
      }).toEqual({ status, code, paths });
      expect(JSON.stringify(answer.body)).not.toContain(CARD_NUMBER);
    }
    expect((await cardOperations()).length).toBe(before.payments);
    expect(sb.balance('merchant')).toBe(before.balance);
  });

  test('the declined test card is accepted PENDING, then FAILED / DECLINED with a callback, nothing credited', async () => {
    const created = await createPayment(paymentBody({ amount: 42 }, { number: TEST_CARDS.declined }));
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ status: 'PENDING', brand: 'VISA', last4: '0002' });
    const before = sb.balance('merchant');
    sb.advanceClock(SETTLE_MS + 1);
    const callback = await waitForCallback(created.body.data.id);
    expect(callback.verified).toBe(true);
    expect(callback.payload).toMatchObject({
      status: 'FAILED',
      providerStatus: 'DECLINED',
      eventType: 'PAYMENT_UPDATED',
    });
    expect(sb.balance('merchant')).toBe(before);
    expect((await getPayment(created.body.data.id)).body.data).toMatchObject({
      status: 'FAILED',
      providerStatus: 'DECLINED',
    });
  });

  test('missing or bad credentials are 401 on both endpoints', async () => {
    const answers = await Promise.all([
      sb.call<Body>('POST', '/api/v1/card/payments', { body: paymentBody() }),
      createPayment(paymentBody(), 'not-a-jwt'),
      sb.call<Body>('POST', '/api/v1/card/payments', {
        body: paymentBody(),
        auth: { ci: 'merchant-client', cs: 'merchant-secret' },
      }),
      sb.call<Body>('GET', '/api/v1/card/payments/1'),
      getPayment(1, 'not-a-jwt'),
    ]);
    expect(answers.map((answer) => [answer.status, answer.body.code])).toEqual(
      Array.from({ length: 5 }, () => [401, 'UNAUTHORIZED']),
    );
  });
});

/** The base64 lines of the environment's private key, as stored. */
function privateKeyLines(): string[] {
  const row = sb.sandbox.ctx.db
    .prepare<[], { value: string }>("SELECT value FROM settings WHERE key = 'shield_rsa_private_key'")
    .get();
  return (row?.value ?? '').split('\n').filter((line) => line.length > 0 && !line.startsWith('-----'));
}

describe('card data at rest', () => {
  test('the SQLite file holds neither the card number nor the ccv', () => {
    const files = [dbPath, `${dbPath}-wal`].filter((file) => existsSync(file));
    const scan = (): string => files.map((file) => readFileSync(file).toString('latin1')).join('\n');
    const assertClean = (bytes: string): void => {
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes).not.toContain(CARD_NUMBER);
      expect(bytes).not.toContain(TEST_CARDS.declined);
      expect(bytes).not.toContain('"ccv"');
      expect(bytes).not.toContain('"cvv"');
      // Random hex ids and the keys could contain the ccv's four digits by chance: blank them first.
      const keys = [sb.sandbox.ctx.jwtKey.toString('base64'), ...privateKeyLines()];
      const blanked = keys.reduce((text, key) => text.split(key).join(''), bytes);
      expect(blanked.replace(/[0-9a-f]{20,}/g, '')).not.toContain(CCV);
    };
    expect(scan()).toContain('1111'); // the last four are there: the scan reads the right file
    assertClean(scan());
    sb.sandbox.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    assertClean(scan());
  });
});
