/**
 * SANDBOX_DEDUPLICATE=false: the spec promises no de-duplication by external_id, so the sandbox can be
 * a provider that makes a second operation for a repeated request. The engine's exactly-once tests run
 * against it; here, that it really debits twice (and makes a charge twice) and that its check still answers one operation.
 */
import { randomBytes } from 'node:crypto';
import {
  cryptoWithdrawalBody,
  merchantHeaders,
  sandboxForThisFile,
  uniqueId,
  withdrawalBody,
  type ResponseBody,
} from '../helpers/sandbox';
import { storeCode } from '../helpers/payouts';

const { sandbox, receiver, token } = sandboxForThisFile({ overrides: { SANDBOX_DEDUPLICATE: 'false' } });

const post = (path: string, body: unknown) =>
  sandbox.call<ResponseBody>('POST', path, { body, auth: { bearer: token() } });
const debitsOf = (externalId: string) =>
  sandbox.sandbox.ledger
    .entries({ externalId })
    .filter((entry) => entry.lines.some((line) => line.account.startsWith('user:') && line.amountCents < 0)).length;

test('a repeated withdrawal is a second operation with a second debit; the check by external_id answers the first', async () => {
  const id = uniqueId('twice');
  const first = await post('/api/withdrawals/withdraw', withdrawalBody(id, receiver.url));
  const second = await post('/api/withdrawals/withdraw', withdrawalBody(id, receiver.url));
  expect([first.status, second.status]).toEqual([200, 200]);
  expect(second.body.transactionId).not.toBe(first.body.transactionId);
  expect(debitsOf(id)).toBe(2);
  const check = await sandbox.call<ResponseBody>('POST', '/api/transactions/check', {
    body: { transactionId: id },
    auth: merchantHeaders,
  });
  expect(check.body.transaction.transactionId).toBe(first.body.transactionId);
});

test('a repeated copy-and-paste payment and crypto withdrawal are second operations too', async () => {
  const qrcode = storeCode(1000);
  const pixId = uniqueId('pp-twice');
  for (let i = 0; i < 2; i += 1)
    expect(
      (await post('/api/payments/pix-copy-paste/pay', { qrcode, external_id: pixId, clientCallbackUrl: receiver.url }))
        .status,
    ).toBe(200);
  expect(debitsOf(pixId)).toBe(2);

  const cryptoId = uniqueId('cw-twice');
  const crypto = cryptoWithdrawalBody(cryptoId, receiver.url);
  for (let i = 0; i < 2; i += 1) expect((await post('/api/crypto/withdraw', crypto)).status).toBe(200);
  expect(debitsOf(cryptoId)).toBe(2);
});

test('a repeated charge (the same transactionId and body) is a second charge at the provider; the check answers one of them', async () => {
  // Letters and digits, at most 25: a valid txid as it is.
  const transactionId = `CI${randomBytes(8).toString('hex')}`;
  const charge = {
    amount: 12.5,
    payerName: 'Ana Souza',
    payerDocument: '52998224725',
    transactionId,
    projectWebhook: receiver.url,
  };
  const answers = [
    await sandbox.call<ResponseBody>('POST', '/api/transactions/create', { body: charge, auth: merchantHeaders }),
  ];
  answers.push(
    await sandbox.call<ResponseBody>('POST', '/api/transactions/create', { body: charge, auth: merchantHeaders }),
  );
  expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
  const operations = sandbox.sandbox.ctx.operations.list({ externalId: transactionId });
  expect(operations).toHaveLength(2);
  const check = await sandbox.call<ResponseBody>('POST', '/api/transactions/check', {
    body: { transactionId },
    auth: merchantHeaders,
  });
  expect(operations.map((operation) => operation.id)).toContain(check.body.transaction.transactionId);
});
