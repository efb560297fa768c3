/** Withdrawals, copy-and-paste payments, internal transfers and the transaction check, over HTTP. */
import { buildBrCode } from '../../src/pix/brcode';
import { withdrawalCallbackSchema } from '../../src/payment-api/schemas/withdrawal';
import { pixCopyPasteCallbackSchema } from '../../src/payment-api/schemas/pix-copy-paste';
import {
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/payment-api/webhook-signature';
import {
  MERCHANT,
  RECIPIENT,
  callbacksNaming,
  firstCallbackNaming,
  sandboxForThisFile,
  uniqueId,
  WEBHOOK_SECRETS,
  withdrawalBody,
  type ResponseBody,
} from '../helpers/sandbox';

const { sandbox, receiver, token } = sandboxForThisFile();

const merchantHeaders = { ci: MERCHANT.clientId, cs: MERCHANT.clientSecret };
const withdraw = (body: unknown, path = '/api/withdrawals/withdraw') =>
  sandbox.call<ResponseBody>('POST', path, { body, auth: { bearer: token() } });
const check = (transactionId: string, auth = merchantHeaders) =>
  sandbox.call<ResponseBody>('POST', '/api/transactions/check', { body: { transactionId }, auth });
const callbacksFor = (externalId: string) => callbacksNaming(receiver, externalId);
const waitForCallback = (externalId: string) => firstCallbackNaming(receiver, externalId);

describe('PIX withdrawal', () => {
  test('answers PROCESSING with the spec shape and debits amount + fee exactly once', async () => {
    const before = sandbox.balance('merchant');
    const id = uniqueId('wd');
    const answer = await withdraw(withdrawalBody(id, receiver.url));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      message: expect.any(String),
      transactionId: expect.stringMatching(/^wd_/),
      withdrawal: {
        transaction_id: answer.body.transactionId,
        external_id: id,
        status: 'PROCESSING',
        amount: 25,
        fee: 1.25,
        total: 26.25,
        type: 'Withdrawal',
      },
    });
    expect(sandbox.balance('merchant')).toBe(before - 2625);
  });

  test('a repeated external_id returns the same withdrawal (also through the alias) and debits once; a different body is 409', async () => {
    const id = uniqueId('replay');
    const body = withdrawalBody(id, receiver.url, { amount: 10.14 });
    const before = sandbox.balance('merchant');
    const first = await withdraw(body);
    const again = await withdraw(body, '/api/payments/withdrawal');
    expect(again).toEqual(first);
    // 10.14 + (0.50 + 3 % of 10.14 = 0.3042 → 0.30) = 10.94
    expect(sandbox.balance('merchant')).toBe(before - 1094);

    const differentAmount = await withdraw({ ...body, amount: 10.15 });
    expect(differentAmount.status).toBe(409);
    expect(differentAmount.body.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await withdraw({ ...body, pix_key: 'ana@example.com', key_type: 'EMAIL' })).status).toBe(409);
    expect(sandbox.balance('merchant')).toBe(before - 1094);
    const ledger = await sandbox.admin<{ entries: unknown[] }>('GET', `/sandbox/ledger?externalId=${id}`);
    expect(ledger.body.entries).toHaveLength(1);
  });

  test('bad input is 400 with every field path; nothing is debited', async () => {
    const before = sandbox.balance('merchant');
    const answer = await withdraw({
      amount: 1.005,
      external_id: '',
      pix_key: 'x',
      key_type: 'IBAN',
      clientCallbackUrl: 'ftp://x',
      surprise: 1,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_FAILED');
    expect([...new Set(answer.body.issues.map((issue: { path: string }) => issue.path))].sort()).toEqual([
      '',
      'amount',
      'clientCallbackUrl',
      'external_id',
      'key_type',
    ]);
    expect((await withdraw({ ...withdrawalBody(uniqueId('neg'), receiver.url), amount: -5 })).status).toBe(400);
    expect(sandbox.balance('merchant')).toBe(before);
  });

  test('a PIX key that does not fit its key_type is 422 INVALID_PIX_KEY; an amount above the balance is 422 INSUFFICIENT_BALANCE', async () => {
    const before = sandbox.balance('merchant');
    const badKey = await withdraw(withdrawalBody(uniqueId('key'), receiver.url, { pix_key: '12345678900' }));
    expect(badKey.status).toBe(422);
    expect(badKey.body).toMatchObject({ code: 'INVALID_PIX_KEY', message: expect.stringMatching(/CPF check digits/) });
    const tooMuch = await withdraw(withdrawalBody(uniqueId('broke'), receiver.url, { amount: 999_999.99 }));
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.code).toBe('INSUFFICIENT_BALANCE');
    expect(sandbox.balance('merchant')).toBe(before);
    expect((await check(uniqueId('broke'))).status).toBe(404);
  });

  test('settles to COMPLETED: the callback verifies over its raw bytes, a tampered body does not; the check moves PROCESSING → COMPLETO', async () => {
    const id = uniqueId('settle');
    const created = await withdraw(withdrawalBody(id, receiver.url, { amount: 12.34 }));
    const byExternal = await check(id);
    expect(byExternal.body.transaction).toMatchObject({
      transactionId: created.body.transactionId,
      value: 12.34,
      fee: 0.87,
      transactionState: 'PROCESSING',
      transactionType: 'SAQUE',
      transactionMethod: 'PIX',
    });

    const callback = await waitForCallback(id);
    expect(callback.verified).toBe(true);
    expect(withdrawalCallbackSchema.parse(callback.payload)).toMatchObject({
      transaction_id: created.body.transactionId,
      status: 'COMPLETED',
      amount: 12.34,
      fee: 0.87,
      total: 13.21,
      type: 'Withdrawal',
    });
    expect(callback.headers['x-service-webhook-id']).toMatch(/^evt_/);
    // Signed with every secret during a rotation: a receiver still on the previous secret accepts it too.
    const verify = (rawBody: Buffer, secrets: string[]) =>
      verifyWebhook({
        secrets,
        rawBody,
        timestampHeader: callback.headers[WEBHOOK_TIMESTAMP_HEADER.toLowerCase()],
        signatureHeader: callback.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()],
        nowSeconds: Math.floor(Date.now() / 1000),
      });
    expect(verify(callback.rawBody, [WEBHOOK_SECRETS[1]!]).ok).toBe(true);
    const tampered = Buffer.from(callback.rawBody.toString('utf8').replace('"COMPLETED"', '"FAILED"'));
    expect(verify(tampered, WEBHOOK_SECRETS)).toEqual({ ok: false, reason: 'bad-signature' });

    const byProvider = await check(created.body.transactionId);
    expect(byProvider.body.transaction.transactionState).toBe('COMPLETO');
    const balances = await sandbox.admin<{ balances: { account: string }[] }>('GET', '/sandbox/balances');
    expect(balances.body.balances.map((row) => row.account)).toEqual(
      expect.arrayContaining(['user:merchant', 'fees', 'pix-out:settled']),
    );
  });

  test('an amount ending in .13 fails with the rule reason and gives amount and fee back', async () => {
    const before = sandbox.balance('merchant');
    const id = uniqueId('fail');
    await withdraw(withdrawalBody(id, receiver.url, { amount: 7.13 }));
    const callback = await waitForCallback(id);
    expect(callback.payload).toMatchObject({
      status: 'FAILED',
      reason: 'Recipient account closed (sandbox rule: amount ending in .13)',
    });
    expect(sandbox.balance('merchant')).toBe(before);
    expect((await check(id)).body.transaction.transactionState).toBe('FALHA');
  });

  test('an amount ending in .14 stays PROCESSING: no settlement, no callback', async () => {
    const id = uniqueId('stuck');
    const other = uniqueId('control');
    await withdraw(withdrawalBody(id, receiver.url, { amount: 3.14 }));
    await withdraw(withdrawalBody(other, receiver.url, { amount: 3.15 }));
    await waitForCallback(other);
    expect(callbacksFor(id)).toEqual([]);
    expect((await check(id)).body.transaction.transactionState).toBe('PROCESSING');
  });

  test("the check finds only the caller's own operations", async () => {
    const id = uniqueId('mine');
    const created = await withdraw(withdrawalBody(id, receiver.url, { amount: 2.14 }));
    const asRecipient = { ci: RECIPIENT.clientId, cs: RECIPIENT.clientSecret };
    expect((await check(id, asRecipient)).status).toBe(404);
    expect((await check(created.body.transactionId, asRecipient)).status).toBe(404);
    const invalid = await sandbox.call<ResponseBody>('POST', '/api/transactions/check', {
      body: { transactionId: '' },
      auth: merchantHeaders,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.issues[0]?.path).toBe('transactionId');
  });
});

describe('PIX copy-and-paste payment', () => {
  const code = (amountCentavos?: number) =>
    buildBrCode({
      pixKey: 'loja@example.com',
      merchantName: 'Loja Exemplo',
      merchantCity: 'Sao Paulo',
      txid: 'PEDIDO42',
      ...(amountCentavos ? { amountCentavos } : {}),
    });
  const pay = (body: Record<string, unknown>) =>
    sandbox.call<ResponseBody>('POST', '/api/payments/pix-copy-paste/pay', { body, auth: { bearer: token() } });

  test('pays the amount in the code with the withdrawal fee at request time, then settles with a PixCopyPaste callback', async () => {
    const before = sandbox.balance('merchant');
    const id = uniqueId('pp');
    const answer = await pay({ qrcode: code(1000), external_id: id, clientCallbackUrl: receiver.url });
    expect(answer.status).toBe(200);
    expect(answer.body.payment).toMatchObject({
      status: 'PROCESSING',
      amount: 10,
      fee: 0.8,
      total: 10.8,
      type: 'PixCopyPaste',
    });
    expect(sandbox.balance('merchant')).toBe(before - 1080);
    const callback = await waitForCallback(id);
    expect(callback.verified).toBe(true);
    expect(pixCopyPasteCallbackSchema.parse(callback.payload).status).toBe('COMPLETED');
    expect((await check(id)).body.transaction).toMatchObject({
      transactionType: 'PAGAMENTO_PIX',
      transactionState: 'COMPLETO',
    });
  });

  test('a code without amount takes the body amount; a missing or different amount is 422 AMOUNT_MISMATCH', async () => {
    expect(
      (await pay({ qrcode: code(), amount: 5, external_id: uniqueId('pp'), clientCallbackUrl: receiver.url })).body
        .payment.amount,
    ).toBe(5);
    expect(
      (await pay({ qrcode: code(), external_id: uniqueId('pp'), clientCallbackUrl: receiver.url })).body.code,
    ).toBe('AMOUNT_MISMATCH');
    expect(
      (await pay({ qrcode: code(1000), amount: 9.99, external_id: uniqueId('pp'), clientCallbackUrl: receiver.url }))
        .body.code,
    ).toBe('AMOUNT_MISMATCH');
  });

  test("a code with a broken CRC is 422 INVALID_QRCODE with the parser's message; nothing is debited", async () => {
    const before = sandbox.balance('merchant');
    const valid = code(1000);
    const broken = valid.slice(0, -4) + (valid.endsWith('0000') ? '1111' : '0000');
    const answer = await pay({ qrcode: broken, external_id: uniqueId('pp'), clientCallbackUrl: receiver.url });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'INVALID_QRCODE', message: expect.stringMatching(/CRC/i) });
    expect(sandbox.balance('merchant')).toBe(before);
  });

  test('an external_id already used by a withdrawal is 409', async () => {
    const id = uniqueId('shared');
    await withdraw(withdrawalBody(id, receiver.url, { amount: 1.14 }));
    expect((await pay({ qrcode: code(114), external_id: id, clientCallbackUrl: receiver.url })).status).toBe(409);
  });
});

describe('internal transfer', () => {
  const transfer = (body: unknown, path = '/api/transactions/internal') =>
    sandbox.call<ResponseBody>('POST', path, { body, auth: merchantHeaders });

  test('moves balance at once (also through the alias) and answers the spec shape; the check shows it COMPLETO', async () => {
    const before = { merchant: sandbox.balance('merchant'), recipient: sandbox.balance('recipient') };
    const answer = await transfer(
      { email: 'Recipient@Sandbox.test', amount: 100.5 },
      '/api/transactions/withdraw/internal',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      transactionId: expect.stringMatching(/^it_/),
      amount: 100.5,
      recipientEmail: 'recipient@sandbox.test',
      recipientName: 'Sandbox Recipient',
      newBalance: (before.merchant - 10050) / 100,
    });
    expect(sandbox.balance('recipient')).toBe(before.recipient + 10050);
    expect((await check(answer.body.data.transactionId)).body.transaction).toMatchObject({
      transactionState: 'COMPLETO',
      transactionType: 'TRANSFERENCIA_INTERNA',
      transactionMethod: 'INTERNAL',
      fee: 0,
    });
  });

  test('an unknown recipient, oneself, or more than the balance is 422; a bad e-mail is 400; nothing moves', async () => {
    const before = sandbox.balance('merchant');
    expect((await transfer({ email: 'nobody@sandbox.test', amount: 1 })).body.code).toBe('RECIPIENT_NOT_FOUND');
    expect((await transfer({ email: 'merchant@sandbox.test', amount: 1 })).status).toBe(422);
    const broke = await sandbox.call<ResponseBody>('POST', '/api/transactions/internal', {
      body: { email: 'merchant@sandbox.test', amount: 1_000_000 },
      auth: { ci: RECIPIENT.clientId, cs: RECIPIENT.clientSecret },
    });
    expect(broke.body.code).toBe('INSUFFICIENT_BALANCE');
    const invalid = await transfer({ email: 'not-an-email', amount: 0 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(['amount', 'email']);
    expect(sandbox.balance('merchant')).toBe(before);
  });
});
