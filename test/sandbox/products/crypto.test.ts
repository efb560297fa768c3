/** Crypto (endpoints 12, 13 and POST /api/crypto/withdraw) over HTTP: fees, bounds, exact USDT, settlement, callback, status. */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import {
  cryptoFeesResponseSchema,
  cryptoStatusResponseSchema,
  cryptoWithdrawalCallbackSchema,
  usdtAmountForReais,
} from '../../../src/payment-api/schemas/crypto';
import {
  cryptoWithdrawalBody,
  merchantHeaders,
  RECIPIENT,
  firstCallbackNaming,
  sandboxForThisFile,
  TRON_WALLET,
  uniqueId,
  withdrawPix,
  type RefusalBody,
} from '../../helpers/sandbox';

const SETTLE_MS = 5_000;
const EVM_WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

const { sandbox: sb, receiver, token } = sandboxForThisFile({ overrides: { SANDBOX_SETTLE_MS: String(SETTLE_MS) } });

interface Body extends RefusalBody {
  transactionId: string;
  external_id: string;
  status: string;
  usdt_amount: string;
  txHash: string | null;
  fees: Record<string, number>;
  transaction: { transactionState: string; transactionType: string; transactionMethod: string };
  [field: string]: unknown;
}

const withdrawBody = (externalId: string, overrides: Record<string, unknown> = {}) =>
  cryptoWithdrawalBody(externalId, receiver.url, overrides);
const withdraw = (body: unknown, bearer = token()) =>
  sb.call<Body>('POST', '/api/crypto/withdraw', { body, auth: { bearer } });
const status = (id: string, bearer = token()) =>
  sb.call<Body>('GET', `/api/crypto/status/${encodeURIComponent(id)}`, { auth: { bearer } });
const check = (id: string) =>
  sb.call<Body>('POST', '/api/transactions/check', { body: { transactionId: id }, auth: merchantHeaders });
const waitForCallback = (externalId: string) => firstCallbackNaming(receiver, externalId);

/** Reais (centavos) / rate (ten-thousandths), rounded down to 6 places, in integers: independent of decimal.js. */
function usdtByIntegers(amountCents: bigint, rateTenThousandths: bigint): string {
  const micro = (amountCents * 10_000n * 1_000_000n) / (100n * rateTenThousandths);
  return `${micro / 1_000_000n}.${String(micro % 1_000_000n).padStart(6, '0')}`;
}

describe('fees', () => {
  test('GET /api/crypto/fees answers the sandbox settings in the contract shape', async () => {
    const answer = await sb.call<Body>('GET', '/api/crypto/fees', { auth: { bearer: token() } });
    expect(answer.status).toBe(200);
    expect(cryptoFeesResponseSchema.parse(answer.body)).toEqual({
      withdrawal_rate: 2,
      rate_fixed: 1,
      min_withdrawal: 50,
      max_withdrawal: 50_000,
      usdt_rate: 5.4,
    });
  });

  test('the admin can change them; invalid settings are 400 with field paths; clients cannot', async () => {
    const bad = await sb.admin<Body>('PUT', '/sandbox/crypto/fees', { min_withdrawal: 60_000, rate_fixed: 1.005 });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((issue) => issue.path).sort()).toEqual(['min_withdrawal', 'rate_fixed']);
    expect(
      (await sb.call('PUT', '/sandbox/crypto/fees', { body: { usdt_rate: 1 }, auth: { bearer: token() } })).status,
    ).toBe(401);
    expect((await sb.admin<Body>('GET', '/sandbox/crypto/fees')).body.fees.usdt_rate).toBe(5.4);
  });
});

describe('a crypto withdrawal', () => {
  const externalId = uniqueId('usdt');
  let transactionId: string;

  test('is accepted PROCESSING with the USDT amount rounded down to 6 places; amount + fee are debited at once', async () => {
    const before = sb.balance('merchant');
    const answer = await withdraw(withdrawBody(externalId));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      message: expect.any(String),
      transactionId: expect.stringMatching(/^cw_/),
      external_id: externalId,
      status: 'PROCESSING',
      amount: 100,
      fee: 3,
      usdt_amount: '18.518518',
      usdt_rate: 5.4,
      wallet: TRON_WALLET,
      network: 'TRC20',
    });
    transactionId = answer.body.transactionId;
    expect(sb.balance('merchant')).toBe(before - 10_300);

    for (const id of [transactionId, externalId]) {
      const current = await status(id);
      expect(current.status).toBe(200);
      expect(cryptoStatusResponseSchema.parse(current.body)).toMatchObject({
        transactionId,
        external_id: externalId,
        status: 'PROCESSING',
        total: 103,
        txHash: null,
      });
    }
    expect((await check(externalId)).body.transaction).toMatchObject({
      transactionState: 'PROCESSING',
      transactionType: 'SAQUE_CRIPTO',
      transactionMethod: 'CRYPTO',
    });
  });

  test('the same external_id and body is the same withdrawal, debited once; another body is 409', async () => {
    const before = sb.balance('merchant');
    const again = await withdraw(withdrawBody(externalId));
    expect(again.status).toBe(200);
    expect(again.body.transactionId).toBe(transactionId);
    const conflict = await withdraw(withdrawBody(externalId, { amount: 101 }));
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(sb.balance('merchant')).toBe(before);
  });

  test('settles after SANDBOX_SETTLE_MS to COMPLETED with a txHash, then a signed CryptoWithdrawal callback', async () => {
    sb.advanceClock(SETTLE_MS + 1);
    const callback = await waitForCallback(externalId);
    expect(callback.verified).toBe(true);
    const payload = cryptoWithdrawalCallbackSchema.parse(callback.payload);
    expect(payload).toMatchObject({
      transaction_id: transactionId,
      external_id: externalId,
      status: 'COMPLETED',
      amount: 100,
      fee: 3,
      total: 103,
      usdt_amount: '18.518518',
      wallet: TRON_WALLET,
      network: 'TRC20',
      type: 'CryptoWithdrawal',
    });
    expect(payload.txHash).toMatch(/^[0-9a-f]{64}$/);
    const settled = await status(externalId);
    expect(settled.body).toMatchObject({ status: 'COMPLETED', txHash: payload.txHash });
    expect((await check(transactionId)).body.transaction.transactionState).toBe('COMPLETO');
    expect(sb.ledgerBalances()).toBe(true);
  });

  test("status is the owner's only; unknown ids and other kinds of operation are 404", async () => {
    const other = await sb.login(RECIPIENT);
    expect((await status(transactionId, other)).status).toBe(404);
    expect((await status('cw_unknown')).status).toBe(404);
    const pixId = uniqueId('pix');
    expect((await withdrawPix(sb, token(), pixId, receiver.url)).status).toBe(200);
    expect((await status(pixId)).status).toBe(404);
  });
});

describe('bounds and validation', () => {
  test('amounts outside min_withdrawal..max_withdrawal are 422 CRYPTO_AMOUNT_OUT_OF_RANGE and move nothing; the bounds themselves pass', async () => {
    const before = sb.balance('merchant');
    for (const amount of [49.99, 50_000.01]) {
      const id = uniqueId('range');
      const answer = await withdraw(withdrawBody(id, { amount }));
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({
        code: 'CRYPTO_AMOUNT_OUT_OF_RANGE',
        issues: [{ path: 'amount', message: expect.any(String) }],
      });
      expect((await status(id)).status).toBe(404);
    }
    expect(sb.balance('merchant')).toBe(before);
    expect((await withdraw(withdrawBody(uniqueId('min'), { amount: 50 }))).status).toBe(200);
    expect(
      (await withdraw(withdrawBody(uniqueId('max'), { amount: 50_000, wallet: EVM_WALLET, network: 'BEP20' }))).status,
    ).toBe(200);
  });

  test('a wallet that does not fit its network, or a third decimal, is 400 with the field path', async () => {
    const answer = await withdraw(withdrawBody(uniqueId('wallet'), { wallet: EVM_WALLET, network: 'TRC20' }));
    expect(answer.status).toBe(400);
    expect(answer.body.issues.map((issue) => issue.path)).toEqual(['wallet']);
    const decimals = await withdraw(withdrawBody(uniqueId('dec'), { amount: 100.005 }));
    expect(decimals.status).toBe(400);
    expect(decimals.body.issues.map((issue) => issue.path)).toEqual(['amount']);
  });

  test('the USDT amount is exact to 6 places at any rate, and the fee is rate_fixed + withdrawal_rate % half-up', async () => {
    expect((await sb.admin('PUT', '/sandbox/crypto/fees', { usdt_rate: 5.4321, withdrawal_rate: 1.75 })).status).toBe(
      200,
    );
    try {
      const answer = await withdraw(
        withdrawBody(uniqueId('rate'), { amount: 1234.56, wallet: EVM_WALLET, network: 'ERC20' }),
      );
      expect(answer.status).toBe(200);
      expect(answer.body.usdt_amount).toBe(usdtByIntegers(123_456n, 54_321n));
      expect(answer.body.usdt_amount).toBe('227.271221');
      // 1.00 + 1.75 % of 1234.56 = 1.00 + 21.6048 → 22.60
      expect(answer.body.fee).toBe(22.6);
    } finally {
      await sb.admin('PUT', '/sandbox/crypto/fees', { usdt_rate: 5.4, withdrawal_rate: 2 });
    }
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), fc.integer({ min: 1, max: 999_999 }), (cents, rate) => {
        expect(usdtAmountForReais(cents / 100, rate / 10_000)).toBe(usdtByIntegers(BigInt(cents), BigInt(rate)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('outcomes', () => {
  test('an amount ending in .13 fails: FAILED callback with a reason, amount and fee back to the merchant', async () => {
    const id = uniqueId('fail');
    const before = sb.balance('merchant');
    expect((await withdraw(withdrawBody(id, { amount: 100.13 }))).status).toBe(200);
    sb.advanceClock(SETTLE_MS + 1);
    const callback = await waitForCallback(id);
    expect(callback.payload).toMatchObject({
      status: 'FAILED',
      reason: expect.stringMatching(/\.13/),
      type: 'CryptoWithdrawal',
    });
    expect((await status(id)).body).toMatchObject({ status: 'FAILED', txHash: null, reason: expect.any(String) });
    expect((await check(id)).body.transaction.transactionState).toBe('FALHA');
    expect(sb.balance('merchant')).toBe(before);
  });

  test('an amount ending in .14 stays PROCESSING until the admin forces the outcome', async () => {
    const id = uniqueId('stuck');
    const created = await withdraw(withdrawBody(id, { amount: 70.14, wallet: EVM_WALLET, network: 'ERC20' }));
    sb.advanceClock(SETTLE_MS + 1);
    expect((await status(id)).body.status).toBe('PROCESSING');
    const forced = await sb.admin('POST', `/sandbox/operations/${created.body.transactionId}/outcome`, {
      status: 'COMPLETED',
    });
    expect(forced.status).toBe(200);
    const callback = await waitForCallback(id);
    expect(callback.payload).toMatchObject({ status: 'COMPLETED', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(sb.ledgerBalances()).toBe(true);
  });
});

describe('credentials', () => {
  test('every crypto endpoint refuses a missing or bad token, and ci/cs headers, with 401', async () => {
    const id = `cred-${randomBytes(4).toString('hex')}`;
    const answers = await Promise.all([
      sb.call<Body>('GET', '/api/crypto/fees'),
      sb.call<Body>('GET', '/api/crypto/fees', { auth: merchantHeaders }),
      withdraw(withdrawBody(id), 'not-a-jwt'),
      sb.call<Body>('POST', '/api/crypto/withdraw', { body: withdrawBody(id), auth: merchantHeaders }),
      status(id, 'not-a-jwt'),
      sb.call<Body>('GET', `/api/crypto/status/${id}`),
    ]);
    expect(answers.map((answer) => [answer.status, answer.body.code])).toEqual(
      Array.from({ length: 6 }, () => [401, 'UNAUTHORIZED']),
    );
    expect((await status(id)).status).toBe(404);
  });
});
