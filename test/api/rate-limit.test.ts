/**
 * The engine API's limit: ENGINE_RATE_LIMIT_PER_MINUTE requests a minute per API key on /v1, requests
 * without a valid key counted by client address; provider callbacks, health and the codec not counted.
 */
import { startEngineApi, type EngineApi } from '../helpers/engine-api';

let api: EngineApi;
beforeAll(async () => {
  api = await startEngineApi({ ENGINE_RATE_LIMIT_PER_MINUTE: '3', ENGINE_API_KEYS: 'key-a,key-b,key-c' });
});
afterAll(() => api?.close());

const statuses = async (count: number, request: () => Promise<Response>): Promise<number[]> => {
  const answers: number[] = [];
  for (let index = 0; index < count; index += 1) answers.push((await request()).status);
  return answers;
};

test('past the limit one API key is answered 429 RATE_LIMITED with Retry-After; another key is not affected', async () => {
  expect(await statuses(3, () => api.fetch('/v1/callbacks/unmatched', { apiKey: 'key-a' }))).toEqual([200, 200, 200]);
  const limited = await api.fetch('/v1/payouts/order-1', { apiKey: 'key-a' });
  expect(limited.status).toBe(429);
  expect(await limited.json()).toEqual({ code: 'RATE_LIMITED', message: expect.stringContaining('3 requests') });
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);

  expect((await api.fetch('/v1/callbacks/unmatched', { apiKey: 'key-b' })).status).toBe(200);
  // Operators see the refusals in the API's metrics.
  expect(await (await fetch(api.metricsUrl)).text()).toMatch(/^payout_engine_rate_limited_requests_total [1-9]/m);
});

test('requests without a valid key are counted by address, whatever key they make up', async () => {
  const guesses = await statuses(4, async () => api.fetch('/v1/callbacks/unmatched', { apiKey: `guess-${Math.random()}` }));
  expect(guesses).toEqual([401, 401, 401, 429]);
  expect((await api.fetch('/v1/payouts', { method: 'POST', apiKey: null })).status).toBe(429);
  // A valid key is its own caller, not its address.
  expect((await api.fetch('/v1/callbacks/unmatched', { apiKey: 'key-c' })).status).toBe(200);
});

test('callbacks, health and the OpenAPI document are never limited', async () => {
  expect(new Set(await statuses(5, () => fetch(`${api.url}/callbacks/withdrawals`, { method: 'POST', body: '{}' })))).toEqual(new Set([401]));
  expect(new Set(await statuses(5, () => fetch(`${api.url}/healthz`)))).toEqual(new Set([200]));
  expect(new Set(await statuses(5, () => fetch(`${api.url}/openapi.json`)))).toEqual(new Set([200]));
});
