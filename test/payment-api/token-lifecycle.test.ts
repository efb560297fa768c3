/**
 * The client's JWT handling, observed on the wire through a counting proxy in front of the sandbox:
 * one login for many calls, a new login before the token expires, and one re-login after a 401.
 */
import http from 'node:http';
import { PaymentApiClient } from '../../src/payment-api/client';
import { freePort } from '../../src/net/free-port';
import { createSandbox } from '../../sandbox';
import { createLogger } from '../../src/logging/logger';
import { testConfig } from '../helpers/temporal';

const config = testConfig({ SANDBOX_TOKEN_TTL_SECONDS: '600' });
let sandbox: ReturnType<typeof createSandbox>;
let proxy: http.Server;
let proxyUrl: string;
const seen: string[] = [];
let rejectNextBearer = false;

beforeAll(async () => {
  sandbox = createSandbox({ config, dbPath: ':memory:', logger: createLogger({ service: 'sandbox' }, 'error') });
  const upstream = await sandbox.start(await freePort());
  proxy = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (rejectNextBearer && req.headers.authorization) {
      rejectNextBearer = false;
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: 'token revoked', code: 'UNAUTHORIZED' }));
      return;
    }
    const forward = http.request(
      `${upstream.url}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await sandbox.stop();
});
beforeEach(() => {
  seen.length = 0;
});

const logins = () => seen.filter((line) => line === 'POST /api/auth/login').length;
const bearerCalls = () => seen.filter((line) => line === 'POST /api/withdrawals/withdraw').length;
/** The engine's client to the sandbox through the counting proxy; `now`: its clock, where a test moves time. */
const clientThroughProxy = (now?: () => number) =>
  new PaymentApiClient({
    baseUrl: proxyUrl,
    clientId: config.PAYMENT_API_CLIENT_ID,
    clientSecret: config.PAYMENT_API_CLIENT_SECRET,
    timeoutMs: 2_000,
    ...(now ? { now } : {}),
  });
let sequence = 0;
/** A small withdrawal: the bearer endpoint every sandbox has. */
const withdraw = (api: PaymentApiClient) =>
  api.withdraw({
    amount: 1,
    external_id: `token-${Date.now()}-${sequence++}`,
    pix_key: '52998224725',
    key_type: 'CPF',
    clientCallbackUrl: 'http://127.0.0.1:9/cb',
  });

test('one login serves many bearer calls, including concurrent ones', async () => {
  const api = clientThroughProxy();
  await Promise.all([withdraw(api), withdraw(api), withdraw(api)]);
  await withdraw(api);
  expect(logins()).toBe(1);
  expect(bearerCalls()).toBe(4);
});

test('the token is renewed before it expires', async () => {
  let now = Date.now();
  const api = clientThroughProxy(() => now);
  await withdraw(api);
  now += 570_000; // 30 s before the 600 s expiry: inside the refresh margin
  await withdraw(api);
  expect(logins()).toBe(2);
});

test('a 401 on a bearer call logs in again once and retries', async () => {
  const api = clientThroughProxy();
  await withdraw(api);
  rejectNextBearer = true;
  await expect(withdraw(api)).resolves.toHaveProperty('transactionId');
  expect(logins()).toBe(2);
  expect(bearerCalls()).toBe(3);
});
