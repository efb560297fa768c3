/** A callback is never lost: when Temporal cannot take the signal, the provider is told to retry (503). */
import type { Server } from 'node:http';
import { createApp } from '../../src/api/app';
import { engineRouters } from '../../src/api/engine-routers';
import { openBatchStore } from '../../src/batches/open-batch-store';
import { createLogger } from '../../src/logging/logger';
import { freePort } from '../../src/net/free-port';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '../../src/payment-api/webhook-signature';
import { createPayloadCodec, lazyClient } from '../../src/temporal/connection';
import { testConfig } from '../helpers/temporal';

let server: Server;
let url: string;

beforeAll(async () => {
  const config = testConfig({ TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` }); // nothing listens there
  const temporal = lazyClient(config);
  const logger = createLogger({}, 'error', () => undefined);
  const app = createApp({ config, logger, codec: createPayloadCodec(config), readiness: {}, routers: engineRouters({ config, logger, temporal: temporal.client, batchStore: openBatchStore(config) }) });
  const port = await freePort();
  await new Promise<void>((resolve) => {
    server = app.listen(port, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

test('a valid callback that Temporal cannot take is answered 503 so that the provider retries', async () => {
  const body = JSON.stringify({ transaction_id: 'wd_1', external_id: 'order-1', status: 'COMPLETED', amount: 1, fee: 0.53, total: 1.53, type: 'Withdrawal', updated_at: new Date().toISOString() });
  const signed = signWebhook(['demo-webhook-secret'], body, Math.floor(Date.now() / 1000));
  const response = await fetch(`${url}/callbacks/withdrawals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [WEBHOOK_TIMESTAMP_HEADER]: signed.timestamp, [WEBHOOK_SIGNATURE_HEADER]: signed.signature },
    body,
  });
  expect(response.status).toBe(503);
  expect(await response.json()).toMatchObject({ code: 'TEMPORAL_UNAVAILABLE' });
});
