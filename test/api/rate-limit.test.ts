/**
 * The engine API's limits: ENGINE_RATE_LIMIT_PER_MINUTE requests a minute per API key on /v1 (requests
 * without a valid key counted by client address); callbacks, the checkout and the codec limited per
 * client address by limits of their own; health never. The client address is the socket's unless a load
 * balancer named in TRUST_PROXY reports it.
 */
import { startEngineApi, type EngineApi } from '../helpers/engine-api';
import { forThisFile } from '../helpers/for-this-file';

const api = forThisFile(() =>
  startEngineApi({
    ENGINE_RATE_LIMIT_PER_MINUTE: '3',
    ENGINE_API_KEYS: 'a:key-a:operator+read,b:key-b:operator+read,c:key-c:operator+read',
    CALLBACK_RATE_LIMIT_PER_MINUTE: '3',
    CHECKOUT_RATE_LIMIT_PER_MINUTE: '3',
    CODEC_RATE_LIMIT_PER_MINUTE: '3',
  }),
);

const statuses = async (count: number, request: () => Promise<Response>): Promise<number[]> => {
  const answers: number[] = [];
  for (let index = 0; index < count; index += 1) answers.push((await request()).status);
  return answers;
};

async function expectRateLimited(response: Response): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(await response.json()).toMatchObject({
    type: 'urn:payout-engine:problem:rate-limited',
    status: 429,
    code: 'RATE_LIMITED',
    detail: expect.stringContaining('3 requests') as unknown,
  });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

test('past the limit one API key is answered 429 RATE_LIMITED with Retry-After; another key is not affected', async () => {
  expect(await statuses(3, () => api.fetch('/v1/callbacks/unmatched', { apiKey: 'key-a' }))).toEqual([200, 200, 200]);
  await expectRateLimited(await api.fetch('/v1/payouts/order-1', { apiKey: 'key-a' }));
  expect((await api.fetch('/v1/callbacks/unmatched', { apiKey: 'key-b' })).status).toBe(200);
  // Operators see the refusals in the API's metrics, by the limit that refused them.
  expect(await (await fetch(api.metricsUrl)).text()).toMatch(
    /^payout_engine_rate_limited_requests_total\{scope="api"\} [1-9]/m,
  );
});

test('requests without a valid key are counted by address, whatever key they make up', async () => {
  const guesses = await statuses(4, async () =>
    api.fetch('/v1/callbacks/unmatched', { apiKey: `guess-${Math.random()}` }),
  );
  expect(guesses).toEqual([401, 401, 401, 429]);
  expect((await api.fetch('/v1/payouts', { method: 'POST', apiKey: null })).status).toBe(429);
  // A valid key is its own caller, not its address.
  expect((await api.fetch('/v1/callbacks/unmatched', { apiKey: 'key-c' })).status).toBe(200);
});

test('callbacks, the checkout and the codec are limited per client address, each by its own limit; health never', async () => {
  // An unsigned callback naming nothing is read and kept as unmatched (202); the limit counts it all the same.
  expect(await statuses(3, () => fetch(`${api.url}/callbacks/withdrawals`, { method: 'POST', body: '{}' }))).toEqual([
    202, 202, 202,
  ]);
  await expectRateLimited(await fetch(`${api.url}/callbacks/withdrawals`, { method: 'POST', body: '{}' }));

  expect(await statuses(3, () => fetch(`${api.url}/checkout/order-1?token=1.x`))).toEqual([401, 401, 401]);
  await expectRateLimited(
    await fetch(`${api.url}/checkout/order-1/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }),
  );

  expect(
    await statuses(3, () =>
      fetch(`${api.url}/codec/t/made-up-token/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"payloads":[]}',
      }),
    ),
  ).toEqual([401, 401, 401]);
  await expectRateLimited(
    await fetch(`${api.url}/codec/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"payloads":[]}',
    }),
  );

  const metrics = await (await fetch(api.metricsUrl)).text();
  for (const scope of ['callbacks', 'checkout', 'codec'])
    expect(metrics).toMatch(new RegExp(`^payout_engine_rate_limited_requests_total\\{scope="${scope}"\\} 1$`, 'm'));
  expect(new Set(await statuses(5, () => fetch(`${api.url}/healthz`)))).toEqual(new Set([200]));
  expect(new Set(await statuses(5, () => fetch(`${api.url}/openapi.json`)))).toEqual(new Set([200]));
});

describe('behind a load balancer', () => {
  let behindProxy: EngineApi;
  beforeAll(async () => {
    behindProxy = await startEngineApi({ CALLBACK_RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: 'loopback' });
  });
  afterAll(() => behindProxy?.close());

  const callbackFrom = (target: EngineApi, client: string) =>
    fetch(`${target.url}/callbacks/withdrawals`, {
      method: 'POST',
      headers: { 'x-forwarded-for': client },
      body: '{}',
    });

  test('with TRUST_PROXY naming it, each client the balancer reports is counted on its own', async () => {
    expect(await statuses(3, () => callbackFrom(behindProxy, '203.0.113.7'))).toEqual([202, 202, 429]);
    expect(await statuses(2, () => callbackFrom(behindProxy, '198.51.100.23'))).toEqual([202, 202]);
  });

  test('without TRUST_PROXY a client cannot escape its limit by making up X-Forwarded-For', async () => {
    const answers = await statuses(2, () => callbackFrom(api, `192.0.2.${Math.floor(Math.random() * 250)}`));
    // The socket's address was used up by the previous test of this file.
    expect(answers).toEqual([429, 429]);
  });
});
