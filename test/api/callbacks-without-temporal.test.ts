/**
 * When Temporal is down: a callback is never lost (503, so the provider retries), every other call
 * answers 503 within the call deadline instead of hanging, and a payout refused this way leaves its
 * externalId free.
 */
import type { Server } from 'node:http';
import { createApp } from '../../src/api/app';
import { engineRouters } from '../../src/api/routers';
import { openBatchStore } from '../../src/batches/open-batch-store';
import { openIntentStore } from '../../src/intents/open-intent-store';
import { openReadModel } from '../../src/read-model/open-read-model';
import type { ReadModel } from '../../src/read-model/read-model';
import type { IntentStore } from '../../src/intents/intent-store';
import type { WebhookEndpointStore } from '../../src/merchant-events/endpoint-store';
import { openUnmatchedCallbackStore, type UnmatchedCallbackStore } from '../../src/api/callbacks/unmatched-callbacks';
import { openWebhookEndpointStore } from '../../src/merchant-events/open-endpoint-store';
import type { BatchStore } from '../../src/batches/batch-store';
import { createLogger } from '../../src/logging/logger';
import { freePort } from '../../src/net/free-port';
import { signWebhook } from '../../src/payment-api/webhook-signature';
import { createPayloadCodec, lazyClient } from '../../src/temporal/connection';
import { testConfig } from '../helpers/temporal';
import { postSignedWithdrawalCallback, withdrawalCallbackBody } from '../helpers/callbacks';

let server: Server;
let url: string;
let batchStore: BatchStore;
let endpoints: WebhookEndpointStore;
let intents: IntentStore;
let readModel: ReadModel;
let unmatched: UnmatchedCallbackStore;
const DEADLINE_MS = 500;

beforeAll(async () => {
  const config = testConfig({
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
    TEMPORAL_CALL_DEADLINE_MS: String(DEADLINE_MS),
  }); // nothing listens there
  const temporal = lazyClient(config);
  const logger = createLogger({}, 'error', () => undefined);
  batchStore = await openBatchStore(config);
  intents = await openIntentStore(config);
  readModel = await openReadModel(config);
  endpoints = await openWebhookEndpointStore(config);
  unmatched = await openUnmatchedCallbackStore(config);
  const app = createApp({
    config,
    logger,
    codec: createPayloadCodec(config),
    readiness: {},
    routers: engineRouters({
      config,
      logger,
      temporal: temporal.client,
      batchStore,
      intents,
      readModel,
      endpoints,
      unmatched,
    }),
  });
  const port = await freePort();
  await new Promise<void>((resolve) => {
    server = app.listen(port, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await endpoints.close();
  await intents.close();
  await readModel.close();
  await unmatched.close();
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
  expect(await batchStore.payoutOwner('down-2')).toBeUndefined();
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
