/**
 * The engine API's own surface: the codec endpoint the Temporal UI calls (an API key, or the UI's codec
 * token in the URL; never on the strength of an Origin header), health and readiness, and the OpenAPI document.
 */
import type { Server } from 'node:http';
import type { PayloadCodec } from '@temporalio/common';
import { createApp } from '../../src/api/app';
import { createLogger } from '../../src/logging/logger';
import { freePort } from '../../src/net/free-port';
import { createPayloadCodec } from '../../src/temporal/connection';
import { testConfig } from '../helpers/temporal';
import { READINESS_PER_MINUTE } from '../../src/api/health-routes';
import { pollUntil } from '../../src/util/poll';

const config = testConfig({ TEMPORAL_UI_PORT: '8233' });
const codec: PayloadCodec = createPayloadCodec(config);
const servers: Server[] = [];
const CODEC_TOKEN = 'ui-codec-token-0123456789abcdef';
const UI_ORIGIN = 'http://localhost:8233';

async function serve(
  options: { readiness?: Record<string, () => Promise<void>>; logs?: (line: string) => void } = {},
): Promise<string> {
  const app = createApp({
    config,
    logger: options.logs ? createLogger({}, 'info', options.logs) : createLogger({}, 'error'),
    codec,
    codecToken: CODEC_TOKEN,
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
  const [payload] = await codec.encode([
    { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"pixKey":"ana@example.com"}') },
  ]);
  return {
    metadata: Object.fromEntries(
      Object.entries(payload?.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
    ),
    data: Buffer.from(payload?.data ?? []).toString('base64'),
  };
}

const post = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const decode = (url: string, headers: Record<string, string>, body: unknown) =>
  post(`${url}/codec/decode`, headers, body);
const dataOf = async (answer: Response): Promise<string[]> =>
  ((await answer.json()) as { payloads: { data: string }[] }).payloads.map((payload) =>
    Buffer.from(payload.data, 'base64').toString(),
  );

test('the codec endpoint decodes payloads for a caller with an API key, and refuses one without', async () => {
  const url = await serve();
  const body = { payloads: [await encryptedPayload()] };
  const refused = await decode(url, {}, body);
  expect(refused.status).toBe(401);

  const decoded = await decode(url, { authorization: `Bearer ${config.ENGINE_API_KEYS[0]?.secret ?? ''}` }, body);
  expect(decoded.status).toBe(200);
  const { payloads } = (await decoded.json()) as { payloads: { data: string }[] };
  expect(Buffer.from(payloads[0]?.data ?? '', 'base64').toString()).toBe('{"pixKey":"ana@example.com"}');
});

test('the Temporal UI decodes through the codec URL with its token; a forged Origin from loopback without it is refused', async () => {
  const url = await serve();
  const body = { payloads: [await encryptedPayload()] };
  const uiEndpoint = `${url}/codec/t/${CODEC_TOKEN}`;

  const preflight = await fetch(`${uiEndpoint}/decode`, {
    method: 'OPTIONS',
    headers: { origin: UI_ORIGIN, 'access-control-request-method': 'POST' },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe(UI_ORIGIN);
  const fromUi = await post(`${uiEndpoint}/decode`, { origin: UI_ORIGIN, 'x-namespace': 'default' }, body);
  expect(fromUi.status).toBe(200);
  expect(await dataOf(fromUi)).toEqual(['{"pixKey":"ana@example.com"}']);

  // Any local process can claim to be the UI: the Origin header proves nothing.
  expect((await decode(url, { origin: UI_ORIGIN }, body)).status).toBe(401);
  expect((await post(`${url}/codec/t/not-the-token-0123456789abcdef/decode`, { origin: UI_ORIGIN }, body)).status).toBe(
    401,
  );
  const otherOrigin = await fetch(`${uiEndpoint}/decode`, {
    method: 'OPTIONS',
    headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
  });
  expect(otherOrigin.headers.get('access-control-allow-origin')).toBeNull();
});

test('the codec token only decodes; encoding needs an API key, and what it encodes decodes again', async () => {
  const url = await serve();
  const plain = {
    payloads: [
      {
        metadata: { encoding: Buffer.from('json/plain').toString('base64') },
        data: Buffer.from('"x"').toString('base64'),
      },
    ],
  };
  expect((await post(`${url}/codec/t/${CODEC_TOKEN}/encode`, {}, plain)).status).toBe(403);

  const encoded = await post(
    `${url}/codec/encode`,
    { authorization: `Bearer ${config.ENGINE_API_KEYS[0]?.secret ?? ''}` },
    plain,
  );
  expect(encoded.status).toBe(200);
  const decoded = await post(`${url}/codec/t/${CODEC_TOKEN}/decode`, {}, await encoded.json());
  expect(await dataOf(decoded)).toEqual(['"x"']);
});

test('a payload that is not encrypted is shown as stored, next to the decrypted ones', async () => {
  const url = await serve();
  const forged = {
    metadata: { encoding: Buffer.from('json/plain').toString('base64') },
    data: Buffer.from('{"forged":true}').toString('base64'),
  };
  const answer = await post(
    `${url}/codec/t/${CODEC_TOKEN}/decode`,
    {},
    { payloads: [forged, await encryptedPayload()] },
  );
  expect(answer.status).toBe(200);
  expect(await dataOf(answer)).toEqual(['{"forged":true}', '{"pixKey":"ana@example.com"}']);
});

test('a malformed codec request is a 400 naming the field', async () => {
  const url = await serve();
  const answer = await decode(
    url,
    { authorization: `Bearer ${config.ENGINE_API_KEYS[0]?.secret ?? ''}` },
    { payloads: [{ data: 'not base64!' }] },
  );
  expect(answer.status).toBe(400);
  expect(await answer.json()).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'payloads.0.data' }] });
});

test('the codec token never reaches a request log line, whatever the case or percent-encoding of the path that carries it', async () => {
  const lines: string[] = [];
  const url = await serve({ logs: (line) => lines.push(line) });
  const body = { payloads: [await encryptedPayload()] };
  // Express routes without regard to case: each of these is the UI's decode route.
  for (const prefix of ['/Codec/t', '/CODEC/T', '/codec/T']) {
    const answer = await post(`${url}${prefix}/${CODEC_TOKEN}/decode`, {}, body);
    expect({ prefix, status: answer.status }).toEqual({ prefix, status: 200 });
  }
  // Not routes, but the token is still a credential wherever the path puts it.
  for (const path of [
    `/%63odec/t/${CODEC_TOKEN}/decode`,
    `//codec/t/${CODEC_TOKEN}/decode`,
    `/codec/%74/${CODEC_TOKEN}`,
  ])
    expect((await post(`${url}${path}`, {}, body)).status).toBe(404);
  const requests = lines.filter((line) => line.includes('"http.request"'));
  expect(requests).toHaveLength(6);
  for (const line of requests) expect(line).not.toContain(CODEC_TOKEN);
  expect(requests[0]).toContain('"path":"/Codec/t/[redacted]/decode"');
});

test('healthz answers while readyz names the dependency that does not, without its internal error', async () => {
  const url = await serve({
    readiness: {
      temporal: () => Promise.resolve(),
      paymentApi: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:4010')),
    },
  });
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  const ready = await fetch(`${url}/readyz`);
  expect(ready.status).toBe(503);
  const text = await ready.text();
  expect(JSON.parse(text)).toEqual({ status: 'not-ready', checks: { temporal: 'ready', paymentApi: 'not-ready' } });
  expect(text).not.toContain('ECONNREFUSED');
});

test('readyz is unauthenticated, so its answer is kept a few seconds: 50 calls, together or one after another, ask each dependency once', async () => {
  const calls = { temporal: 0, paymentApi: 0 };
  const slowly = (name: keyof typeof calls) => async () => {
    calls[name] += 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  };
  const url = await serve({ readiness: { temporal: slowly('temporal'), paymentApi: slowly('paymentApi') } });
  const together = await Promise.all(Array.from({ length: 25 }, () => fetch(`${url}/readyz`)));
  const afterwards: Response[] = [];
  for (let index = 0; index < 25; index += 1) afterwards.push(await fetch(`${url}/readyz`));
  for (const answer of [...together, ...afterwards]) {
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 'ready', checks: { temporal: 'ready', paymentApi: 'ready' } });
  }
  expect(calls).toEqual({ temporal: 1, paymentApi: 1 });
});

test('readyz tells a dependency that came back within a few seconds', async () => {
  let providerUp = false;
  const url = await serve({
    readiness: {
      paymentApi: () => (providerUp ? Promise.resolve() : Promise.reject(new Error('connect ECONNREFUSED'))),
    },
  });
  expect((await fetch(`${url}/readyz`)).status).toBe(503);
  providerUp = true;
  await pollUntil(async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 500,
    description: 'readyz to see the provider back',
  });
});

test('readyz is limited per client address, well above what a prober or a start-up poller asks; healthz never', async () => {
  const url = await serve({ readiness: { temporal: () => Promise.resolve() } });
  const statuses: number[] = [];
  for (let index = 0; index < READINESS_PER_MINUTE; index += 1) statuses.push((await fetch(`${url}/readyz`)).status);
  expect(new Set(statuses)).toEqual(new Set([200]));
  const refused = await fetch(`${url}/readyz`);
  expect(refused.status).toBe(429);
  expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
});

test('GET /openapi.json documents every payout route with its request schema, one shape per rail', async () => {
  const url = await serve();
  const document = (await (await fetch(`${url}/openapi.json`)).json()) as {
    openapi: string;
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } }>>;
    components: { schemas: Record<string, { oneOf?: { required?: string[] }[] }> };
  };
  expect(document.openapi).toBe('3.1.0');
  expect(Object.keys(document.paths)).toEqual(
    expect.arrayContaining([
      '/v1/payouts',
      '/v1/payouts/{externalId}',
      '/v1/payouts/{externalId}/cancel',
      '/callbacks/withdrawals',
    ]),
  );
  // The body refers to the named shape, which generated clients call PayoutRequest.
  const reference = document.paths['/v1/payouts']?.post?.requestBody?.content['application/json']?.schema.$ref;
  expect(reference).toBe('#/components/schemas/PayoutRequest');
  const shapes = document.components.schemas.PayoutRequest?.oneOf;
  // One shape per rail, each with the fields it requires.
  expect(shapes?.map((shape) => shape.required)).toEqual([
    ['externalId', 'amount', 'pixKey', 'keyType'],
    ['externalId', 'method', 'emv'],
    ['externalId', 'method', 'email', 'amount'],
    ['externalId', 'method', 'amount', 'wallet'],
  ]);
});
