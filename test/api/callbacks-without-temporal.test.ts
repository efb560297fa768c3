/**
 * When Temporal is down: a callback is never lost (503, so the provider retries), every other call
 * answers 503 within the call deadline instead of hanging, and a payout refused this way leaves its
 * externalId free.
 */
import type { Server } from 'node:http';
import { engineApp, openEngine, type Engine } from '../../src/engine/engine';
import { createLogger } from '../../src/logging/logger';
import { freePort } from '../../src/net/free-port';
import { signWebhook } from '../../src/payment-api/webhook-signature';
import { lazyClient } from '../../src/temporal/connection';
import { testConfig } from '../helpers/temporal';
import { postSignedWithdrawalCallback, withdrawalCallbackBody } from '../helpers/callbacks';

let server: Server;
let url: string;
let engine: Engine;
const DEADLINE_MS = 500;

beforeAll(async () => {
  const config = testConfig({
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
    TEMPORAL_CALL_DEADLINE_MS: String(DEADLINE_MS),
  }); // nothing listens there
  const temporal = lazyClient(config);
  const logger = createLogger({}, 'error', () => undefined);
  engine = await openEngine(config, logger, temporal.client);
  const app = engineApp(engine, { readiness: {} });
  const port = await freePort();
  await new Promise<void>((resolve) => {
    server = app.listen(port, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await engine.close();
});

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${url}${path}`, {
    method,
    headers: { authorization: 'Bearer dev-api-key', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

// The SDK's own retries would take ~20 s to give up; the API gives up at its deadline (500 ms). Half the SDK's
// time tells the two apart on a machine however loaded.
const PROMPTLY_MS = 10_000;

test.each([
  ['POST', '/v1/payouts', { externalId: 'down-1', amount: 10, pixKey: '52998224725', keyType: 'CPF' }],
  ['GET', '/v1/payouts/down-1', undefined],
  ['POST', '/v1/payouts/down-1/recheck', undefined],
  [
    'POST',
    '/v1/payout-batches',
    { batchId: 'down-batch', items: [{ externalId: 'down-b1', amount: 10, pixKey: '52998224725', keyType: 'CPF' }] },
  ],
])('%s %s answers 503 promptly while Temporal is down', async (method, path, body) => {
  const started = Date.now();
  const response = await api(method, path, body);
  expect(response.status).toBe(503);
  expect(await response.json()).toMatchObject({ code: 'TEMPORAL_UNAVAILABLE' });
  expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
});

test('a payout refused with 503 leaves its externalId free: a batch may take it later', async () => {
  expect(
    (await api('POST', '/v1/payouts', { externalId: 'down-2', amount: 10, pixKey: '52998224725', keyType: 'CPF' }))
      .status,
  ).toBe(503);
  expect(await engine.batchStore.payoutOwner('down-2')).toBeUndefined();
});

test('a valid callback that Temporal cannot take is answered 503 so that the provider retries', async () => {
  const body = withdrawalCallbackBody({
    transactionId: 'wd_1',
    externalId: 'order-1',
    status: 'COMPLETED',
    amount: 1,
    fee: 0.53,
    total: 1.53,
  });
  const signed = signWebhook(['demo-webhook-secret'], body, Math.floor(Date.now() / 1000));
  const send = () => postSignedWithdrawalCallback(url, body, signed);
  const response = await send();
  expect(response.status).toBe(503);
  expect(await response.json()).toMatchObject({ code: 'TEMPORAL_UNAVAILABLE' });
  // Not taken, so not a replay: a provider resending the very same bytes is tried again, not waved through.
  const again = await send();
  expect(again.status).toBe(503);
  expect(await again.json()).toMatchObject({ code: 'TEMPORAL_UNAVAILABLE' });
});
