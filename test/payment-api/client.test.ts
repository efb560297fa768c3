/**
 * PaymentApiClient against the running sandbox over HTTP: both credential schemes, every withdrawal-family
 * endpoint and alias, and each error the caller must tell apart (invalid, auth, not found, conflict,
 * provider failure, ambiguous, connection).
 */
import { randomUUID } from 'node:crypto';
import { buildBrCode } from '../../src/pix/brcode';
import { PaymentApiClient } from '../../src/payment-api/client';
import {
  AmbiguousOutcomeError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  ProviderFailureError,
} from '../../src/payment-api/errors';
import { freePort } from '../../src/net/free-port';
import { createSandbox } from '../../sandbox';
import { createLogger } from '../../src/logging/logger';
import { testConfig } from '../helpers/temporal';

const CALLBACK_URL = 'http://127.0.0.1:9/callbacks';
let sandbox: ReturnType<typeof createSandbox>;
let baseUrl: string;
const config = testConfig({ SANDBOX_SETTLE_MS: '100', SANDBOX_CALLBACK_MAX_ATTEMPTS: '1' });

beforeAll(async () => {
  sandbox = createSandbox({ config, dbPath: ':memory:', logger: createLogger({ service: 'sandbox' }, 'error') });
  const started = await sandbox.start(await freePort());
  baseUrl = started.url;
});
afterAll(() => sandbox?.stop());
afterEach(() => admin('DELETE', '/sandbox/faults'));

function client(overrides: Partial<ConstructorParameters<typeof PaymentApiClient>[0]> = {}): PaymentApiClient {
  return new PaymentApiClient({
    baseUrl,
    clientId: config.PAYMENT_API_CLIENT_ID,
    clientSecret: config.PAYMENT_API_CLIENT_SECRET,
    timeoutMs: 2_000,
    ...overrides,
  });
}

async function admin(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { entries?: { lines: { account: string; amountCents: number }[] }[] } }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${config.SANDBOX_ADMIN_TOKEN}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as { entries?: { lines: { account: string; amountCents: number }[] }[] }) : {},
  };
}

async function debits(externalId: string): Promise<number> {
  const ledger = await admin('GET', `/sandbox/ledger?externalId=${externalId}`);
  return (ledger.body.entries ?? []).filter((entry) =>
    entry.lines.some((line) => line.account.startsWith('user:') && line.amountCents < 0),
  ).length;
}

const withdrawal = (externalId: string, amount = 25) => ({
  amount,
  external_id: externalId,
  pix_key: '52998224725',
  key_type: 'CPF' as const,
  clientCallbackUrl: CALLBACK_URL,
});
const id = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

test('login returns a JWT whose claims carry an expiry in the future', async () => {
  const { token } = await client().login();
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    exp: number;
    sub: string;
  };
  expect(claims.sub).toBe(config.PAYMENT_API_CLIENT_ID);
  expect(claims.exp * 1000).toBeGreaterThan(Date.now());
});

test('wrong credentials are an AuthenticationError on both schemes', async () => {
  const api = client({ clientSecret: 'wrong' });
  await expect(api.withdraw(withdrawal(id('auth')))).rejects.toBeInstanceOf(AuthenticationError);
  await expect(api.checkTransaction('anything')).rejects.toBeInstanceOf(AuthenticationError);
});

test('a withdrawal answers PROCESSING with the fee taken at request; the alias is the same operation', async () => {
  const api = client();
  const externalId = id('wd');
  const response = await api.withdraw(withdrawal(externalId, 25));
  expect(response.withdrawal).toMatchObject({
    external_id: externalId,
    status: 'PROCESSING',
    amount: 25,
    fee: 1.25,
    total: 26.25,
  });
  const viaAlias = await api.withdrawViaPayments(withdrawal(externalId, 25));
  expect(viaAlias.transactionId).toBe(response.transactionId);
  expect(await debits(externalId)).toBe(1);
});

test('the same external_id with a different body is a ConflictError', async () => {
  const api = client();
  const externalId = id('conflict');
  await api.withdraw(withdrawal(externalId, 10));
  await expect(api.withdraw(withdrawal(externalId, 11))).rejects.toBeInstanceOf(ConflictError);
  expect(await debits(externalId)).toBe(1);
});

test('a key that does not fit its type is refused by the provider as an InvalidRequestError', async () => {
  const error = await client()
    .withdraw({ ...withdrawal(id('key')), pix_key: '52998224724' })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidRequestError);
  expect((error as InvalidRequestError).details.status).toBe(422);
});

test('a request that breaks the contract fails before it leaves, with the field named', async () => {
  const error = await client()
    .withdraw({ ...withdrawal(id('contract')), amount: 10.001 })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidRequestError);
  expect((error as InvalidRequestError).details.status).toBeUndefined();
  expect((error as InvalidRequestError).issues.map((issue) => issue.path)).toEqual(['amount']);
});

test('the check finds an operation by the client id and by the provider id, and its state moves to COMPLETO', async () => {
  const api = client();
  const externalId = id('check');
  const { transactionId } = await api.withdraw(withdrawal(externalId, 5));
  const byClientId = await api.checkTransaction(externalId);
  expect(byClientId.transaction.transactionId).toBe(transactionId);
  expect(['PROCESSING', 'PENDENTE', 'COMPLETO']).toContain(byClientId.transaction.transactionState);
  const deadline = Date.now() + 10_000;
  let state = byClientId.transaction.transactionState;
  while (state !== 'COMPLETO' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    state = (await api.checkTransaction(transactionId)).transaction.transactionState;
  }
  expect(state).toBe('COMPLETO');
  await expect(api.checkTransaction(id('nobody'))).rejects.toBeInstanceOf(NotFoundError);
});

test('internal transfers move balance to another sandbox user, under both paths', async () => {
  const api = client();
  const first = await api.internalTransfer({ email: 'recipient@sandbox.test', amount: 10 });
  const second = await api.internalTransferViaWithdraw({ email: 'recipient@sandbox.test', amount: 5 });
  expect(first.data.recipientEmail).toBe('recipient@sandbox.test');
  expect(Math.round(first.data.newBalance * 100) - Math.round(second.data.newBalance * 100)).toBe(500);
  await expect(api.internalTransfer({ email: 'nobody@sandbox.test', amount: 1 })).rejects.toBeInstanceOf(
    InvalidRequestError,
  );
});

test('a copy-and-paste payment pays a valid BR Code and refuses a tampered one', async () => {
  const api = client();
  const qrcode = buildBrCode({
    pixKey: 'loja@example.com',
    merchantName: 'Loja Exemplo',
    merchantCity: 'SAO PAULO',
    amountCentavos: 1990,
    txid: 'PEDIDO123',
  });
  const paid = await api.payPixCopyPaste({ qrcode, external_id: id('emv'), clientCallbackUrl: CALLBACK_URL });
  // Endpoint 5's shape is not shown: the client reads the payment's id and status wherever the answer holds them.
  expect(paid).toMatchObject({
    read: true,
    transactionId: expect.any(String),
    status: 'PROCESSING',
    fee: 1.1,
    total: 21,
  });
  const tampered = qrcode.replace('19.90', '19.91');
  await expect(
    api.payPixCopyPaste({ qrcode: tampered, external_id: id('emv'), clientCallbackUrl: CALLBACK_URL }),
  ).rejects.toBeInstanceOf(InvalidRequestError);
});

test('a provider 503 is a ProviderFailureError', async () => {
  await admin('PUT', '/sandbox/faults', { errorRate: 1 });
  await expect(client().checkTransaction('x')).rejects.toBeInstanceOf(ProviderFailureError);
});

test('a withdrawal committed and then unanswered is ambiguous, never a plain failure', async () => {
  await admin('PUT', '/sandbox/faults', { timeoutAfterCommit: { count: 1, mode: 'reset' } });
  const externalId = id('amb');
  const error = await client()
    .withdraw(withdrawal(externalId, 3))
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AmbiguousOutcomeError);
  expect((await client().checkTransaction(externalId)).transaction.transactionId).toBeTruthy();
  expect(await debits(externalId)).toBe(1);
});

test('nothing listening is a ConnectionError: nothing was sent', async () => {
  const api = client({ baseUrl: `http://127.0.0.1:${await freePort()}` });
  await expect(api.checkTransaction('x')).rejects.toBeInstanceOf(ConnectionError);
});
