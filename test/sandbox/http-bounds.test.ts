/**
 * What the sandbox answers to a request it cannot take as sent, in the provider's error body: a body
 * over the limit (413), a body that is not JSON (415), a method the path does not have (405 with Allow),
 * and more logins a minute for one client_id than SANDBOX_LOGIN_RATE_LIMIT_PER_MINUTE (429 with Retry-After).
 */
import { providerErrorSchema } from '../../src/payment-api/schemas/errors';
import { ADMIN_TOKEN, MERCHANT, RECIPIENT, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ overrides: { SANDBOX_LOGIN_RATE_LIMIT_PER_MINUTE: '3' } });
});
afterAll(() => sandbox?.stop());

async function send(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(sandbox.url + path, {
    method,
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: response.ok || !text ? undefined : providerErrorSchema.parse(JSON.parse(text)),
  };
}

const login = (clientId: string, secret: string) =>
  send('POST', '/api/auth/login', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: secret }),
  });

test('a body that is not JSON is refused with 415, not read as an empty object', async () => {
  const token = await sandbox.login(RECIPIENT);
  const body = JSON.stringify({
    amount: 25,
    external_id: 'ct-1',
    pix_key: '52998224725',
    key_type: 'CPF',
    clientCallbackUrl: 'http://127.0.0.1:9/cb',
  });
  const plain = await send('POST', '/api/withdrawals/withdraw', {
    headers: { 'content-type': 'text/plain', authorization: `Bearer ${token}` },
    body,
  });
  expect(plain.status).toBe(415);
  expect(plain.body).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('application/json') });

  const admin = await send('PUT', '/sandbox/faults', {
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: 'latencyMs=5',
  });
  expect(admin.status).toBe(415);
  // No body at all needs no Content-Type.
  expect(
    (await send('DELETE', '/sandbox/faults', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status,
  ).toBe(200);
});

test('a body over the limit is 413 PAYLOAD_TOO_LARGE', async () => {
  const answer = await send('POST', '/api/transactions/check', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'x'.repeat(300 * 1024) }),
  });
  expect(answer.status).toBe(413);
  expect(answer.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
});

test('a method the path does not have is 405 with Allow; OPTIONS lists the methods', async () => {
  const withdraw = await send('GET', '/api/withdrawals/withdraw');
  expect(withdraw.status).toBe(405);
  expect(withdraw.headers.get('allow')).toBe('POST');
  expect(withdraw.body).toEqual({ code: 'METHOD_NOT_ALLOWED', message: expect.stringContaining('GET') });

  expect((await send('DELETE', '/api/v1/card/payments/12')).headers.get('allow')).toBe('GET, HEAD');
  const faults = await send('POST', '/sandbox/faults', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(faults.status).toBe(405);
  expect(faults.headers.get('allow')).toBe('DELETE, GET, HEAD, PUT');
  expect((await send('POST', '/sandbox/faults')).status).toBe(401);

  const options = await send('OPTIONS', '/api/auth/login');
  expect(options.status).toBe(200);
  expect(options.headers.get('allow')).toBe('POST');
  const adminOptions = await send('OPTIONS', '/sandbox/balances', {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(adminOptions.status).toBe(200);
  expect(adminOptions.headers.get('allow')).toBe('GET, HEAD');
  expect((await send('GET', '/api/nothing-here')).status).toBe(404);
});

test('logins past the limit of one client_id are 429 RATE_LIMITED with Retry-After; other clients log in', async () => {
  const answers = [];
  for (let attempt = 0; attempt < 4; attempt += 1)
    answers.push(await login(MERCHANT.clientId, attempt === 0 ? MERCHANT.clientSecret : 'wrong-guess'));
  expect(answers.map((answer) => answer.status)).toEqual([200, 401, 401, 429]);
  const limited = answers[3]!;
  expect(limited.body).toEqual({ code: 'RATE_LIMITED', message: expect.any(String) });
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  // Even the right secret waits for the window.
  expect((await login(MERCHANT.clientId, MERCHANT.clientSecret)).status).toBe(429);

  expect((await login(RECIPIENT.clientId, RECIPIENT.clientSecret)).status).toBe(200);
});
