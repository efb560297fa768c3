/**
 * PaymentApiClient against the running sandbox over HTTP, for the products beyond the withdrawal family:
 * PIX cash-in and its deposit alternative, card payments, crypto, MED infractions. Each call goes
 * through the client's schemas both ways, so a drift between contract and sandbox fails here.
 */
import { randomBytes } from 'node:crypto';
import { PaymentApiClient } from '../../src/payment-api/client';
import {
  AuthenticationError,
  InvalidRequestError,
  NotFoundError,
  RouteNotConfiguredError,
} from '../../src/payment-api/errors';
import { pollUntil } from '../../src/util/poll';
import { ADMIN_TOKEN, MERCHANT, startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import {
  infractionDefenseResponseSchema,
  infractionListResponseSchema,
} from '../../src/payment-api/schemas/infractions';
import { SANDBOX_CRYPTO_WITHDRAW_PATH } from '../../tools/stack/sandbox-provider-env';

const CALLBACK_URL = 'http://127.0.0.1:9/callbacks';
let sb: TestSandbox;

beforeAll(async () => {
  sb = await startTestSandbox({
    overrides: { SANDBOX_SETTLE_MS: '100', SANDBOX_CALLBACK_MAX_ATTEMPTS: '1', SANDBOX_INFRACTION_RESOLVE_MS: '100' },
  });
});
afterAll(() => sb?.stop());

const client = (clientSecret = MERCHANT.clientSecret) =>
  new PaymentApiClient({
    baseUrl: sb.url,
    clientId: MERCHANT.clientId,
    clientSecret,
    timeoutMs: 2_000,
    cryptoWithdrawPath: SANDBOX_CRYPTO_WITHDRAW_PATH,
  });
const txid = () => `CLI${randomBytes(8).toString('hex')}`;
const charge = (transactionId: string, amount = 40) => ({
  amount,
  payerName: 'Ana Souza',
  payerDocument: '52998224725',
  transactionId,
  projectWebhook: CALLBACK_URL,
});

async function payByAdmin(transactionId: string): Promise<void> {
  const answer = await sb.admin('POST', `/sandbox/cash-ins/${transactionId}/pay`, {});
  expect(answer.status).toBe(200);
}

test('a PIX cash-in and a deposit answer PENDING with a BR Code, and the check follows the payment to COMPLETO', async () => {
  const api = client();
  const transactionId = txid();
  const created = await api.createPixCashIn(charge(transactionId, 40));
  expect(created.qrCodeResponse).toMatchObject({ status: 'PENDING', amount: 40 });
  expect(created.qrCodeResponse.qrcode).toMatch(/^000201/);

  const deposit = await api.createDeposit(charge(txid(), 12.5));
  expect(deposit.qrCodeResponse.status).toBe('PENDING');

  await payByAdmin(transactionId);
  const checked = await api.checkTransaction(transactionId);
  expect(checked.transaction).toMatchObject({
    transactionType: 'DEPOSITO',
    transactionMethod: 'PIX',
    transactionState: 'COMPLETO',
  });
  await expect(api.createPixCashIn({ ...charge(txid()), amount: 0 })).rejects.toBeInstanceOf(InvalidRequestError);
});

test('a card payment is created PENDING, read back by id, and settles to COMPLETED', async () => {
  const api = client();
  const created = await api.createCardPayment({
    amount: 100,
    installmentCount: 2,
    dueDate: '2030-01-15',
    clientCallbackUrl: CALLBACK_URL,
    payer: { name: 'Ana Souza', email: 'ana@example.com', document: '52998224725', phone: '11987654321' },
    creditCard: {
      holderName: 'ANA SOUZA',
      number: '4111111111111111',
      expiryMonth: '12',
      expiryYear: String(new Date().getUTCFullYear() + 1),
      ccv: '123',
    },
  });
  expect(created.data).toMatchObject({ status: 'PENDING', brand: 'VISA', last4: '1111' });
  const settled = await pollUntil(
    async () => {
      const read = await api.getCardPayment(created.data.id);
      return read.data.status === 'COMPLETED' ? read : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 50, description: 'the card payment to settle' },
  );
  expect(settled.data.id).toBe(created.data.id);
  await expect(api.getCardPayment(999_999_999)).rejects.toBeInstanceOf(NotFoundError);
});

test('crypto: the fees bound a withdrawal, whose status moves to COMPLETED; out of bounds is refused', async () => {
  const api = client();
  const fees = await api.getCryptoFees();
  expect(fees.usdt_rate).toBeGreaterThan(0);
  const externalId = `crypto-${randomBytes(4).toString('hex')}`;
  const request = {
    amount: fees.min_withdrawal,
    wallet: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
    network: 'TRC20' as const,
    external_id: externalId,
    clientCallbackUrl: CALLBACK_URL,
  };
  const created = await api.createCryptoWithdrawal(request);
  expect(created).toMatchObject({ status: 'PROCESSING', external_id: externalId });
  const settled = await pollUntil(
    async () => {
      const status = await api.getCryptoStatus(created.transactionId);
      return status.status === 'COMPLETED' ? status : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 50, description: 'the crypto withdrawal to settle' },
  );
  expect(settled.usdt_amount).toBe(created.usdt_amount);
  await expect(
    api.createCryptoWithdrawal({ ...request, external_id: `${externalId}-big`, amount: fees.max_withdrawal + 1 }),
  ).rejects.toBeInstanceOf(InvalidRequestError);
});

test('crypto: without the route that creates a withdrawal (the spec shows none) nothing is sent, and the fees still answer', async () => {
  const api = new PaymentApiClient({
    baseUrl: sb.url,
    clientId: MERCHANT.clientId,
    clientSecret: MERCHANT.clientSecret,
    timeoutMs: 2_000,
  });
  expect((await api.getCryptoFees()).usdt_rate).toBeGreaterThan(0);
  const request = {
    amount: 60,
    wallet: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
    network: 'TRC20' as const,
    external_id: `crypto-off-${randomBytes(4).toString('hex')}`,
    clientCallbackUrl: CALLBACK_URL,
  };
  await expect(api.createCryptoWithdrawal(request)).rejects.toBeInstanceOf(RouteNotConfiguredError);
  expect(
    (await sb.admin<{ operations: unknown[] }>('GET', `/sandbox/operations?externalId=${request.external_id}`)).body
      .operations,
  ).toEqual([]);
});

test('infractions: listed in pages, defended while WAITING_PSP, resolved; a second defense is refused', async () => {
  const api = client();
  const transactionId = txid();
  await api.createPixCashIn(charge(transactionId, 30));
  await payByAdmin(transactionId);
  const providerId = (await api.checkTransaction(transactionId)).transaction.transactionId;
  const opened = await fetch(`${sb.url}/sandbox/infractions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ transactionId: providerId, reason: 'fraud' }),
  });
  expect(opened.status).toBe(200);

  // The engine's client hands endpoints 7 and 8 over as sent (their shapes are not shown); the sandbox answers its documented ones.
  const page = infractionListResponseSchema.parse(await api.listInfractions({ page: 1, perPage: 5 }));
  const infraction = page.data.find((item) => item.transactionId === providerId);
  expect(infraction?.status).toBe('WAITING_PSP');
  const defended = infractionDefenseResponseSchema.parse(
    await api.submitInfractionDefense(String(infraction?.id), {
      analise: 'NEGADA',
      justificativa: 'Goods delivered; tracking attached.',
    }),
  );
  expect(defended.infraction.analise).toBe('NEGADA');
  await pollUntil(
    async () => {
      const listed = infractionListResponseSchema.parse(await api.listInfractions({ page: 1, perPage: 100 }));
      return listed.data.find((item) => item.id === infraction?.id && item.status === 'REJECTED');
    },
    { timeoutMs: 10_000, intervalMs: 50, description: 'the infraction to be resolved' },
  );
  await expect(
    api.submitInfractionDefense(String(infraction?.id), { analise: 'ACEITA', justificativa: 'again' }),
  ).rejects.toBeInstanceOf(InvalidRequestError);
  await expect(api.listInfractions({ perPage: 101 })).rejects.toBeInstanceOf(InvalidRequestError);
});

test('each product refuses a wrong secret as an AuthenticationError', async () => {
  const api = client('wrong-secret');
  await expect(api.createPixCashIn(charge(txid()))).rejects.toBeInstanceOf(AuthenticationError);
  await expect(api.getCryptoFees()).rejects.toBeInstanceOf(AuthenticationError);
  await expect(api.listInfractions({})).rejects.toBeInstanceOf(AuthenticationError);
});
