/**
 * The engine API's own surface: the codec endpoint the Temporal UI calls (behind an API key; the local
 * dev UI let through on loopback outside production), health and readiness, and the OpenAPI document.
 */
import type { Server } from 'node:http';
import type { PayloadCodec } from '@temporalio/common';
import { createApp, localUiOrigins } from '../../src/api/app';
import { createLogger } from '../../src/logging/logger';
import { freePort } from '../../src/net/free-port';
import { createPayloadCodec } from '../../src/temporal/connection';
import { testConfig } from '../helpers/temporal';

const config = testConfig({ TEMPORAL_UI_PORT: '8233' });
const codec: PayloadCodec = createPayloadCodec(config);
const servers: Server[] = [];

async function serve(options: { production?: boolean; readiness?: Record<string, () => Promise<void>> } = {}): Promise<string> {
  const app = createApp({
    config: { ...config, NODE_ENV: options.production ? 'production' : 'test' },
    logger: createLogger({}, 'error'),
    codec,
    readiness: options.readiness ?? {},
  });
  const port = await freePort();
  await new Promise<void>((resolve) => servers.push(app.listen(port, '127.0.0.1', () => resolve())));
  return `http://127.0.0.1:${port}`;
}
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

async function encryptedPayload(): Promise<{ metadata: Record<string, string>; data: string }> {
  const [payload] = await codec.encode([{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"pixKey":"ana@example.com"}') }]);
  return {
    metadata: Object.fromEntries(Object.entries(payload?.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value).toString('base64')])),
    data: Buffer.from(payload?.data ?? []).toString('base64'),
  };
}

const decode = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(`${url}/codec/decode`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

test('the codec endpoint decodes payloads for a caller with an API key, and refuses one without', async () => {
  const url = await serve();
  const body = { payloads: [await encryptedPayload()] };
  const refused = await decode(url, {}, body);
  expect(refused.status).toBe(401);

  const decoded = await decode(url, { authorization: `Bearer ${config.ENGINE_API_KEYS[0] ?? ''}` }, body);
  expect(decoded.status).toBe(200);
  const { payloads } = (await decoded.json()) as { payloads: { data: string }[] };
  expect(Buffer.from(payloads[0]?.data ?? '', 'base64').toString()).toBe('{"pixKey":"ana@example.com"}');
});

test('the local Temporal UI may call the codec from the browser outside production, never in production', async () => {
  const origin = localUiOrigins(8233)[0] ?? '';
  const body = { payloads: [await encryptedPayload()] };

  const dev = await serve();
  const preflight = await fetch(`${dev}/codec/decode`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
  expect((await decode(dev, { origin }, body)).status).toBe(200);
  expect((await decode(dev, { origin: 'http://evil.example' }, body)).status).toBe(401);

  const production = await serve({ production: true });
  expect((await decode(production, { origin }, body)).status).toBe(401);
});

test('a malformed codec request is a 400 naming the field', async () => {
  const url = await serve();
  const answer = await decode(url, { authorization: `Bearer ${config.ENGINE_API_KEYS[0] ?? ''}` }, { payloads: [{ data: 'not base64!' }] });
  expect(answer.status).toBe(400);
  expect(await answer.json()).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'payloads.0.data' }] });
});

test('healthz answers while readyz names the dependency that does not', async () => {
  const url = await serve({ readiness: { temporal: () => Promise.resolve(), paymentApi: () => Promise.reject(new Error('connect ECONNREFUSED')) } });
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  const ready = await fetch(`${url}/readyz`);
  expect(ready.status).toBe(503);
  expect(await ready.json()).toMatchObject({ status: 'not-ready', checks: { temporal: { ok: true }, paymentApi: { ok: false, error: 'connect ECONNREFUSED' } } });
});

test('GET /openapi.json documents every payout route with its request schema', async () => {
  const url = await serve();
  const document = (await (await fetch(`${url}/openapi.json`)).json()) as { openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>> };
  expect(document.openapi).toBe('3.1.0');
  expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/payouts', '/v1/payouts/{externalId}', '/v1/payouts/{externalId}/cancel', '/callbacks/withdrawals']));
  expect(document.paths['/v1/payouts']?.post?.requestBody?.content['application/json']?.schema.required).toEqual(['externalId', 'amount', 'pixKey', 'keyType']);
});
