/** Credentials per the spec's Authentication table, the one error body, health and OpenAPI. */
import { createHmac } from 'node:crypto';
import { providerErrorSchema } from '../../src/payment-api/schemas/errors';
import { endpoints, ENDPOINT_NAMES } from '../../src/payment-api/endpoints';
import {
  MERCHANT,
  RECIPIENT,
  startCallbackReceiver,
  startTestSandbox,
  uniqueId,
  withdrawalBody,
  type CallbackReceiver,
  type TestSandbox,
} from '../helpers/sandbox';

let clock = Date.now();
let sandbox: TestSandbox;
let receiver: CallbackReceiver;
beforeAll(async () => {
  sandbox = await startTestSandbox({ now: () => clock, overrides: { SANDBOX_TOKEN_TTL_SECONDS: '60' } });
  receiver = await startCallbackReceiver();
});
afterAll(async () => {
  await sandbox?.stop();
  await receiver?.close();
});

function expectError(answer: { status: number; body: unknown }, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(providerErrorSchema.parse(answer.body).code).toBe(code);
}

const fakeJwt = (claims: object, key = 'not-the-key'): string => {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${header}.${payload}.${createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url')}`;
};

describe('login', () => {
  test('the right credentials give a HS256 JWT with sub, iat and exp = iat + SANDBOX_TOKEN_TTL_SECONDS', async () => {
    const answer = await sandbox.call<{ token: string; expiresIn: number }>('POST', '/api/auth/login', {
      body: { client_id: MERCHANT.clientId, client_secret: MERCHANT.clientSecret },
    });
    expect(answer.status).toBe(200);
    const [header, payload] = answer.body.token.split('.') as [string, string];
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      sub: string;
      iat: number;
      exp: number;
    };
    expect(claims.sub).toBe(MERCHANT.clientId);
    expect(claims.exp - claims.iat).toBe(60);
    expect(answer.body.expiresIn).toBe(60);
  });

  test('wrong secret, unknown client and a missing field are refused without a token', async () => {
    expectError(
      await sandbox.call('POST', '/api/auth/login', { body: { client_id: MERCHANT.clientId, client_secret: 'wrong' } }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await sandbox.call('POST', '/api/auth/login', { body: { client_id: 'nobody', client_secret: 'x' } }),
      401,
      'UNAUTHORIZED',
    );
    const missing = await sandbox.call<{ issues: { path: string }[] }>('POST', '/api/auth/login', {
      body: { client_id: MERCHANT.clientId },
    });
    expectError(missing, 400, 'VALIDATION_FAILED');
    expect(missing.body.issues.map((issue) => issue.path)).toEqual(['client_secret']);
  });
});

describe('Bearer endpoints (withdrawal, alias, copy-and-paste)', () => {
  const bearerPaths = ['/api/withdrawals/withdraw', '/api/payments/withdrawal', '/api/payments/pix-copy-paste/pay'];

  test.each(bearerPaths)(
    '%s: no header, a malformed header, a forged, an expired and a ci/cs-only request are all 401',
    async (path) => {
      const body = withdrawalBody(uniqueId('auth'), receiver.url);
      expectError(await sandbox.call('POST', path, { body }), 401, 'UNAUTHORIZED');
      expectError(
        await sandbox.call('POST', path, { body, headers: { authorization: 'Token abc' } }),
        401,
        'UNAUTHORIZED',
      );
      expectError(await sandbox.call('POST', path, { body, auth: { bearer: 'not-a-jwt' } }), 401, 'UNAUTHORIZED');
      const now = Math.floor(clock / 1000);
      expectError(
        await sandbox.call('POST', path, {
          body,
          auth: { bearer: fakeJwt({ sub: MERCHANT.clientId, iat: now, exp: now + 600 }) },
        }),
        401,
        'UNAUTHORIZED',
      );
      expectError(
        await sandbox.call('POST', path, { body, auth: { ci: MERCHANT.clientId, cs: MERCHANT.clientSecret } }),
        401,
        'UNAUTHORIZED',
      );
    },
  );

  test('a token past its exp is refused with TOKEN_EXPIRED; a fresh login works again', async () => {
    const token = await sandbox.login();
    const body = () => withdrawalBody(uniqueId('expiry'), receiver.url, { amount: 1.14 });
    expect(
      (await sandbox.call('POST', '/api/withdrawals/withdraw', { body: body(), auth: { bearer: token } })).status,
    ).toBe(200);
    clock += 61_000;
    expectError(
      await sandbox.call('POST', '/api/withdrawals/withdraw', { body: body(), auth: { bearer: token } }),
      401,
      'TOKEN_EXPIRED',
    );
    expect(
      (
        await sandbox.call('POST', '/api/withdrawals/withdraw', {
          body: body(),
          auth: { bearer: await sandbox.login() },
        })
      ).status,
    ).toBe(200);
  });

  test('a token with alg none is refused', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: MERCHANT.clientId, iat: 1, exp: 9_999_999_999 })).toString(
      'base64url',
    );
    expectError(
      await sandbox.call('POST', '/api/withdrawals/withdraw', { body: {}, auth: { bearer: `${header}.${payload}.x` } }),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('credential-header endpoints (check, internal transfer and alias)', () => {
  const headerPaths = ['/api/transactions/check', '/api/transactions/internal', '/api/transactions/withdraw/internal'];

  test.each(headerPaths)('%s: missing, half or wrong ci/cs, and a Bearer token instead, are all 401', async (path) => {
    const body = { transactionId: 'x', email: 'recipient@sandbox.test', amount: 1 };
    expectError(await sandbox.call('POST', path, { body }), 401, 'UNAUTHORIZED');
    expectError(await sandbox.call('POST', path, { body, headers: { ci: MERCHANT.clientId } }), 401, 'UNAUTHORIZED');
    expectError(
      await sandbox.call('POST', path, { body, auth: { ci: MERCHANT.clientId, cs: RECIPIENT.clientSecret } }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await sandbox.call('POST', path, { body, auth: { bearer: await sandbox.login() } }),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('the admin API', () => {
  test('needs the admin token', async () => {
    expectError(await sandbox.call('GET', '/sandbox/balances'), 401, 'UNAUTHORIZED');
    expectError(await sandbox.call('GET', '/sandbox/balances', { auth: { admin: 'wrong' } }), 401, 'UNAUTHORIZED');
    expect((await sandbox.admin('GET', '/sandbox/balances')).status).toBe(200);
  });
});

describe('errors, health and the OpenAPI document', () => {
  test('malformed JSON is 400 MALFORMED_JSON; an unknown path is 404 NOT_FOUND; both in the error body', async () => {
    const token = await sandbox.login();
    expectError(
      await sandbox.call('POST', '/api/withdrawals/withdraw', { rawBody: '{"amount": 1,', auth: { bearer: token } }),
      400,
      'MALFORMED_JSON',
    );
    expectError(await sandbox.call('GET', '/api/nothing-here'), 404, 'NOT_FOUND');
  });

  test('GET /healthz answers ok', async () => {
    expect(await sandbox.call('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  test('GET /openapi.json documents every path and alias of the endpoint table with its credential scheme; the deposit endpoint with both', async () => {
    const answer = await sandbox.call<{
      openapi: string;
      paths: Record<string, Record<string, { security?: Record<string, unknown>[]; description?: string }>>;
    }>('GET', '/openapi.json');
    expect(answer.body.openapi).toBe('3.1.0');
    for (const name of ENDPOINT_NAMES) {
      const endpoint = endpoints[name];
      const operation = answer.body.paths[endpoint.path.replace(/:(\w+)/g, '{$1}')]?.[endpoint.method.toLowerCase()];
      expect(operation).toBeDefined();
      // Each alternative requirement, by the names of its schemes.
      const requirements = (operation?.security ?? []).map((requirement) => Object.keys(requirement).sort());
      const expected =
        name === 'createDeposit'
          ? [['bearerAuth'], ['clientId', 'clientSecret']]
          : { none: [], bearer: [['bearerAuth']], 'client-headers': [['clientId', 'clientSecret']] }[endpoint.auth];
      expect({ name, requirements }).toEqual({ name, requirements: expected });
    }
    expect(answer.body.paths['/api/payments/deposit']?.post?.description).toContain('CASH_IN_DEPOSIT_AUTH');
  });
});
