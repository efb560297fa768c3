/**
 * PIX charges through the real stack (engine API → update-with-start → charge workflow → sandbox over
 * HTTP → signed callbacks): the code answered at once and checked by an independent reader, paid,
 * expired, paid late, found by polling when callbacks are lost, idempotent, refused before anything
 * starts, and created once even when the API dies between the start and its answer: counted at a recording
 * proxy, against a sandbox that de-duplicates no charge (SANDBOX_DEDUPLICATE=false).
 */
import { randomBytes } from 'node:crypto';
import type { ChargeCreatedResponse, ChargeResponse } from '../../src/api/charges/schemas';
import { freePort } from '../../src/net/free-port';
import { paymentApiClient } from '../../src/engine/payment-api-client';
import { AuthenticationError } from '../../src/payment-api/errors';
import { pollUntil } from '../../src/util/poll';
import { chargeWorkflowId } from '../../src/contracts/charge';
import { readEmv } from '../helpers/emv-reader';
import { engineForThisFile, startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { recordHistory } from '../helpers/record-history';
import { waitForCharge } from '../helpers/charges';

const CPF = '52998224725';
const CNPJ = '11222333000181';

// A sandbox that de-duplicates no charge, reached through a recording proxy: "created once" is counted at the wire.
const stack = engineForThisFile(
  { SANDBOX_DEDUPLICATE: 'false', CASH_IN_LATE_PAYMENT_WINDOW_MS: '20000', CASH_IN_REFUND_WINDOW_MS: '60000' },
  { providerProxy: true },
);

/** Letters and digits only, so the BR Code's txid is the externalId itself. */
const newChargeId = (label: string): string => `${label}${randomBytes(5).toString('hex')}`;

const charge = (externalId: string, overrides: Record<string, unknown> = {}) => ({
  externalId,
  amount: 150.25,
  payer: { name: 'Ana Souza', document: '529.982.247-25', email: 'ana@example.com' },
  description: 'Invoice',
  ...overrides,
});

const create = (body: unknown) =>
  stack.api<ChargeCreatedResponse & { code?: string; issues?: { path: string; message: string }[] }>(
    'POST',
    '/v1/charges',
    body,
  );
const pay = (externalId: string) =>
  stack.admin('POST', `/sandbox/cash-ins/${externalId}/pay`, { payerName: 'Ana Souza' });

/**
 * The code the charge answers: static with our amount and txid by default; dynamic against the seed
 * profile (a location, no amount, txid ***), the amount then shown from our own request.
 */
function expectedCode(txid?: string): Record<string, unknown> {
  if (process.env.SANDBOX_PROFILE === 'seed') return { crcValid: true, txid: '***', fields: expect.any(Map) };
  return { crcValid: true, amount: '150.25', ...(txid ? { txid } : {}) };
}

/** The creations of this charge the engine sent (endpoint 1), as the proxy saw them. */
function creationsSent(externalId: string): number {
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  return stack.provider.requests.filter(
    (request) =>
      request.method === 'POST' && request.path === '/api/transactions/create' && request.body.includes(externalId),
  ).length;
}

async function providerCharges(externalId: string): Promise<{ product: string; details?: { channel?: string } }[]> {
  const answer = await stack.admin<{ operations: { product: string; details?: { channel?: string } }[] }>(
    'GET',
    `/sandbox/operations?externalId=${externalId}`,
  );
  return answer.body.operations;
}

test('a charge answers its checked code and QR picture at once; the payer pays; PAID by callback with fee and net amount', async () => {
  const id = newChargeId('paid');
  const created = await create(charge(id));
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    externalId: id,
    status: 'PENDING',
    amount: 150.25,
    workflowId: chargeWorkflowId(id),
  });
  expect(Date.parse(created.body.expiresAt)).toBeGreaterThan(Date.now());

  const code = readEmv(created.body.qrcode);
  expect(code).toMatchObject(expectedCode(id));
  const png = Buffer.from(created.body.qrcodeImage.replace(/^data:image\/png;base64,/, ''), 'base64');
  expect(created.body.qrcodeImage.startsWith('data:image/png;base64,')).toBe(true);
  expect(png.subarray(1, 4).toString()).toBe('PNG');

  expect((await pay(id)).status).toBe(200);
  const paid = await waitForCharge(stack, id, ['PAID']);
  expect(paid).toMatchObject({
    amount: 150.25,
    fee: 1.5,
    netAmount: 148.75,
    payerName: 'Ana Souza',
    source: 'workflow',
  });
  expect(paid.callbacksReceived).toBeGreaterThanOrEqual(1);
  expect(paid.providerTransactionId).toMatch(/^ci_/);
  expect(Date.parse(paid.paidAt ?? '')).not.toBeNaN();
  expect(paid.transitions.map((transition) => transition.to)).toEqual(['PENDING', 'PAID']);

  const listed = await stack.api<{ data: { externalId: string; status: string }[] }>('GET', '/v1/charges?status=PAID');
  await pollUntil(
    async () =>
      (await stack.api<{ data: { externalId: string }[] }>('GET', '/v1/charges?status=PAID')).body.data.some(
        (item) => item.externalId === id,
      )
        ? true
        : undefined,
    {
      timeoutMs: 10_000,
      description: 'the paid charge in the list',
    },
  );
  expect(listed.status).toBe(200);
  await recordHistory(stack.temporal.client, chargeWorkflowId(id), 'charge-paid');
});

test('the same request again answers the same charge and code; a different body under its externalId is 409', async () => {
  const id = newChargeId('same');
  const first = await create(charge(id, { payer: { name: 'Bia Lima', document: CNPJ } }));
  const again = await create(charge(id, { payer: { name: 'Bia Lima', document: '11.222.333/0001-81' } }));
  expect(first.status).toBe(201);
  expect(again.status).toBe(201);
  expect(again.body.qrcode).toBe(first.body.qrcode);
  const other = await create(charge(id, { amount: 99 }));
  expect(other.status).toBe(409);
  expect(other.body.code).toBe('CHARGE_CONFLICT');
  expect(creationsSent(id)).toBe(1);
  expect(await providerCharges(id)).toHaveLength(1);
});

test('unpaid at expiresAt → EXPIRED; the payer paying later (money arrived) → PAID, late, within the window', async () => {
  const id = newChargeId('late');
  const created = await create(charge(id, { expiresInSeconds: 2 }));
  expect(created.status).toBe(201);
  const expired = await waitForCharge(stack, id, ['EXPIRED'], 20_000);
  expect(expired.transitions.at(-1)?.cause).toMatch(/not paid by/);

  expect((await pay(id)).status).toBe(200);
  const paid = await waitForCharge(stack, id, ['PAID'], 20_000);
  expect(paid.transitions.map((transition) => transition.to)).toEqual(['PENDING', 'EXPIRED', 'PAID']);
  expect(paid.transitions.at(-1)?.cause).toMatch(/late/);
  await recordHistory(stack.temporal.client, chargeWorkflowId(id), 'charge-expired-paid-late');
});

test('with the callback dropped the charge is found PAID by polling the transaction check', async () => {
  await stack.admin('PUT', '/sandbox/faults', { callbacks: { drop: { share: 1 } } });
  const id = newChargeId('poll');
  await create(charge(id));
  await pay(id);
  const paid = await waitForCharge(stack, id, ['PAID']);
  expect(paid.callbacksReceived).toBe(0);
  expect(paid.checksMade).toBeGreaterThanOrEqual(1);
});

test('bad requests are refused before anything starts: shape 400 with field paths, a document failing its check digits 422', async () => {
  const id = newChargeId('bad');
  const shape = await create(charge(id, { amount: 10.123, payer: { name: 'Ana', document: '123' } }));
  expect(shape.status).toBe(400);
  expect(shape.body.issues?.map((issue) => issue.path).sort()).toEqual(['amount', 'payer.document']);
  const digits = await create(charge(id, { payer: { name: 'Ana', document: '52998224724' } }));
  expect(digits.status).toBe(422);
  expect(digits.body.issues).toEqual([{ path: 'payer.document', message: expect.stringMatching(/check digits/) }]);
  expect((await stack.api('GET', `/v1/charges/${id}`)).status).toBe(404);
  expect(await providerCharges(id)).toHaveLength(0);
});

test('the API process killed between the start and its answer: the same request retried gets the same charge, created once at the provider', async () => {
  const id = newChargeId('crash');
  // The provider answers slowly, so the API is still waiting for the created charge when it dies; within the engine's
  // timeout (2 s here), so the provider's answer is the one the engine reads, not a retry's.
  await stack.admin('PUT', '/sandbox/faults', { latencyMs: 1_200 });
  const port = await freePort();
  const api = await stack.spawnApiProcess(port);
  const pending = fetch(`http://127.0.0.1:${port}/v1/charges`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.config.ENGINE_API_KEYS[0]?.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(charge(id)),
  }).catch((error: unknown) => error);
  await pollUntil(
    async () =>
      (await stack.temporal.client.workflow
        .getHandle(chargeWorkflowId(id))
        .describe()
        .catch(() => undefined))
        ? true
        : undefined,
    {
      timeoutMs: 10_000,
      intervalMs: 50,
      description: 'the charge workflow to start',
    },
  );
  api.kill('SIGKILL');
  // The connection died with the process: fetch fails (its TypeError comes from another realm than jest's).
  expect(String(await pending)).toMatch(/fetch failed/);
  await stack.admin('DELETE', '/sandbox/faults');

  const retried = await create(charge(id));
  expect(retried.status).toBe(201);
  expect(readEmv(retried.body.qrcode)).toMatchObject(expectedCode());
  expect(creationsSent(id)).toBe(1);
  expect(await providerCharges(id)).toHaveLength(1);
});

describe('with CASH_IN_ENDPOINT=deposit', () => {
  let deposits: EngineHarness;
  beforeAll(async () => {
    deposits = await startEngineHarness({ CASH_IN_ENDPOINT: 'deposit' });
  });
  afterAll(() => deposits?.close());

  test('the charge is created through POST /api/payments/deposit and paid like any other', async () => {
    const id = newChargeId('dep');
    const created = await createDepositAndPay(deposits, id);
    expect(readEmv(created.qrcode)).toMatchObject(expectedCode());
  });
});

/** A charge created through the engine on the deposit endpoint (endpoint 6), paid at the provider, until the engine shows it PAID. */
async function createDepositAndPay(deposits: EngineHarness, id: string): Promise<ChargeCreatedResponse> {
  const created = await deposits.api<ChargeCreatedResponse>(
    'POST',
    '/v1/charges',
    charge(id, { payer: { name: 'Caio', document: CPF } }),
  );
  expect(created.status).toBe(201);
  const operations = await deposits.admin<{ operations: { details?: { channel?: string } }[] }>(
    'GET',
    `/sandbox/operations?externalId=${id}`,
  );
  expect(operations.body.operations.map((operation) => operation.details?.channel)).toEqual(['payments/deposit']);
  await deposits.admin('POST', `/sandbox/cash-ins/${id}/pay`, {});
  await pollUntil(
    async () =>
      (await deposits.api<ChargeResponse>('GET', `/v1/charges/${id}`)).body.status === 'PAID' ? true : undefined,
    {
      timeoutMs: 30_000,
      description: 'the deposit to be PAID',
    },
  );
  return created.body;
}

describe('with CASH_IN_ENDPOINT=deposit and CASH_IN_DEPOSIT_AUTH=client-headers', () => {
  // The sandbox then plays a provider whose endpoint 6 takes ci/cs and refuses a Bearer token.
  let deposits: EngineHarness;
  beforeAll(async () => {
    deposits = await startEngineHarness({ CASH_IN_ENDPOINT: 'deposit', CASH_IN_DEPOSIT_AUTH: 'client-headers' });
  });
  afterAll(() => deposits?.close());

  test('the charge is created through POST /api/payments/deposit with the client headers and paid; Bearer is refused there', async () => {
    const id = newChargeId('dep-ci');
    await createDepositAndPay(deposits, id);

    // The setting is what made it work: the same provider refuses the default credentials at endpoint 6.
    const withBearer = paymentApiClient({ ...deposits.config, CASH_IN_DEPOSIT_AUTH: 'bearer' });
    const refused = withBearer.createDeposit({
      amount: 10,
      payerName: 'Caio',
      payerDocument: CPF,
      transactionId: newChargeId('dep-bearer'),
      projectWebhook: 'http://127.0.0.1:9/hook',
    });
    await expect(refused).rejects.toBeInstanceOf(AuthenticationError);
  });
});
