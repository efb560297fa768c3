import { randomBytes } from 'node:crypto';
import { STRONG_PRODUCTION_ENV } from '../helpers/production-env';
import { API_KEY_SCOPES } from '../../src/config/api-keys';
import { ConfigError, deprecatedVariables, loadConfig } from '../../src/config/env';

test('a fresh environment gets the documented local defaults', () => {
  const config = loadConfig({});
  expect(config).toMatchObject({
    ENGINE_PORT: 3000,
    SANDBOX_PORT: 4010,
    TEMPORAL_ADDRESS: '127.0.0.1:7233',
    TEMPORAL_UI_PORT: 8233,
    TEMPORAL_NAMESPACE: 'default',
    ENGINE_API_KEYS: [{ name: 'dev', secret: 'dev-api-key', scopes: [...API_KEY_SCOPES] }],
    PAYMENT_API_BASE_URL: 'http://127.0.0.1:4010',
    PAYMENT_API_CLIENT_ID: 'demo-client',
    PAYMENT_API_CLIENT_SECRET: 'demo-secret',
    WEBHOOK_SECRET: ['demo-webhook-secret'],
    SANDBOX_ADMIN_TOKEN: 'demo-admin',
    ENGINE_PUBLIC_URL: 'http://127.0.0.1:3000',
  });
  expect(config.DATA_DIR).toMatch(/\.data$/);
});

test('URLs derived from a port follow that port unless set themselves', () => {
  expect(loadConfig({ SANDBOX_PORT: '4020', ENGINE_PORT: '3020' })).toMatchObject({
    PAYMENT_API_BASE_URL: 'http://127.0.0.1:4020',
    ENGINE_PUBLIC_URL: 'http://127.0.0.1:3020',
  });
  expect(
    loadConfig({ SANDBOX_PORT: '4020', PAYMENT_API_BASE_URL: 'https://psp.example.com/' }).PAYMENT_API_BASE_URL,
  ).toBe('https://psp.example.com');
});

test('a bad value stops start-up with a message naming the variable', () => {
  expect(() => loadConfig({ ENGINE_PORT: 'eighty', TEMPORAL_ADDRESS: 'no-port' })).toThrow(ConfigError);
  try {
    loadConfig({ ENGINE_PORT: 'eighty', TEMPORAL_ADDRESS: 'no-port' });
  } catch (error) {
    const message = (error as Error).message;
    expect(message).toContain('ENGINE_PORT');
    expect(message).toContain('TEMPORAL_ADDRESS: must be host:port');
  }
});

test('production refuses every demo credential and a missing encryption key', () => {
  let message = '';
  try {
    loadConfig({ NODE_ENV: 'production', SANDBOX_ADMIN_TOKEN: 'demo-admin' });
  } catch (error) {
    message = (error as Error).message;
  }
  for (const name of [
    'ENGINE_API_KEYS',
    'PAYMENT_API_CLIENT_ID',
    'PAYMENT_API_CLIENT_SECRET',
    'WEBHOOK_SECRET',
    'SANDBOX_ADMIN_TOKEN',
    'PAYLOAD_ENCRYPTION_KEY',
  ]) {
    expect(message).toContain(name);
  }
});

test('production starts with real values; rotation secrets and several API keys are lists', () => {
  const config = loadConfig(STRONG_PRODUCTION_ENV);
  expect(config.ENGINE_API_KEYS.map((key) => key.secret)).toEqual([
    'key-one-0123456789abcdefghij',
    'key-two-0123456789abcdefghij',
  ]);
  expect(config.WEBHOOK_SECRET).toEqual(['new-secret-0123456789abcdefghij', 'old-secret-0123456789abcdefghij']);
});

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  return '(accepted)';
}

/** Production with STRONG_PRODUCTION_ENV changed by `changes` is refused, the message naming every problem. */
function expectProductionRefusal(changes: Record<string, string>, problems: readonly string[]): void {
  const message = refusal({ ...STRONG_PRODUCTION_ENV, ...changes });
  for (const problem of problems) expect(message).toContain(problem);
}

const tooShort = (name: string) => `${name}: each value must be at least 24 characters`;

test.each([
  ['all zero', Buffer.alloc(32)],
  ['one repeated byte', Buffer.alloc(32, 1)],
  ['hex digits used as bytes', Buffer.from(randomBytes(16).toString('hex'))],
  ['a short word repeated', Buffer.from('payout'.repeat(6).slice(0, 32))],
])('production refuses a payload key that is not random bytes: %s', (_label, key) => {
  expect(refusal({ ...STRONG_PRODUCTION_ENV, PAYLOAD_ENCRYPTION_KEY: key.toString('base64') })).toMatch(
    /PAYLOAD_ENCRYPTION_KEY: is not 32 random bytes/,
  );
});

test('production refuses an API key, a webhook secret or a codec token shorter than 24 characters', () => {
  expectProductionRefusal(
    {
      ENGINE_API_KEYS: 'key-one-0123456789abcdefghij,short-key',
      WEBHOOK_SECRET: 'only-20-characters-x',
      CODEC_TOKEN: 'codec-token-23-chars-xx',
    },
    ['ENGINE_API_KEYS', 'WEBHOOK_SECRET', 'CODEC_TOKEN'].map(tooShort),
  );
  // Outside production the same values are fine: local stacks and tests use short demo values.
  expect(() =>
    loadConfig({ ...STRONG_PRODUCTION_ENV, NODE_ENV: 'development', ENGINE_API_KEYS: 'short-key' }),
  ).not.toThrow();
});

test('previous payload keys are id:base64key pairs of 32 bytes, each id distinct from the active one', () => {
  const previous = `k-2026-05:${randomBytes(32).toString('base64')}, k-2025-11:${randomBytes(32).toString('base64')}`;
  expect(
    loadConfig({ ...STRONG_PRODUCTION_ENV, PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: previous })
      .PAYLOAD_ENCRYPTION_PREVIOUS_KEYS,
  ).toHaveLength(2);
  expect(refusal({ PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: randomBytes(32).toString('base64') })).toMatch(
    /PAYLOAD_ENCRYPTION_PREVIOUS_KEYS.*id:base64key/,
  );
  expect(refusal({ PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: `old:${randomBytes(16).toString('base64')}` })).toMatch(
    /32 bytes/,
  );
  expect(
    refusal({
      ...STRONG_PRODUCTION_ENV,
      PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: `k-2026-11:${randomBytes(32).toString('base64')}`,
    }),
  ).toMatch(/PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: every key id must differ/);
});

test('the engine API binds loopback by default; the codec allows the local dev UI origins unless told otherwise', () => {
  expect(loadConfig({ TEMPORAL_UI_PORT: '8299' })).toMatchObject({
    ENGINE_HOST: '127.0.0.1',
    CODEC_CORS_ORIGINS: ['http://localhost:8299', 'http://127.0.0.1:8299'],
  });
  expect(loadConfig({ ENGINE_HOST: '0.0.0.0', CODEC_CORS_ORIGINS: 'https://temporal.example.com' })).toMatchObject({
    ENGINE_HOST: '0.0.0.0',
    CODEC_CORS_ORIGINS: ['https://temporal.example.com'],
  });
  expect(refusal({ CODEC_CORS_ORIGINS: 'https://temporal.example.com/ui' })).toMatch(
    /CODEC_CORS_ORIGINS.*must be an origin/,
  );
});

test('an encryption key of the wrong size is refused', () => {
  expect(() => loadConfig({ PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
    /PAYLOAD_ENCRYPTION_KEY: must be 32 bytes/,
  );
});

test('production names the provider, its own public URL and the checkout key itself: no local default stands in', () => {
  const {
    PAYMENT_API_BASE_URL: _provider,
    ENGINE_PUBLIC_URL: _public,
    CHECKOUT_TOKEN_SECRET: _checkout,
    ...rest
  } = STRONG_PRODUCTION_ENV;
  const message = refusal(rest);
  for (const name of ['PAYMENT_API_BASE_URL', 'ENGINE_PUBLIC_URL', 'CHECKOUT_TOKEN_SECRET'])
    expect(message).toContain(`${name}: is required when NODE_ENV=production`);
  // Outside production the local stack's defaults: the sandbox, this machine, a key derived from the first API key.
  expect(loadConfig({})).toMatchObject({
    PAYMENT_API_BASE_URL: 'http://127.0.0.1:4010',
    ENGINE_PUBLIC_URL: 'http://127.0.0.1:3000',
  });
});

test('production refuses http:// wherever the network is crossed: the provider, its browser URL, the checkout links, the callbacks', () => {
  const urls = {
    PAYMENT_API_BASE_URL: 'http://api.psp.example.com',
    PAYMENT_BROWSER_BASE_URL: 'http://js.psp.example.com',
    CHECKOUT_PUBLIC_URL: 'http://pay.merchant.example.com',
    ENGINE_PUBLIC_URL: 'http://payouts.merchant.example.com',
  };
  expectProductionRefusal(
    urls,
    Object.keys(urls).map((name) => `${name}: must be https when NODE_ENV=production`),
  );
  expect(() =>
    loadConfig({
      ...STRONG_PRODUCTION_ENV,
      PAYMENT_BROWSER_BASE_URL: 'https://js.psp.example.com',
      CHECKOUT_PUBLIC_URL: 'https://pay.merchant.example.com',
    }),
  ).not.toThrow();
});

test("production checks the checkout key's and the sandbox admin token's length, and refuses loopback webhooks; an unset admin token is one nobody knows", () => {
  expectProductionRefusal(
    { CHECKOUT_TOKEN_SECRET: 'sixteen-chars-ok', SANDBOX_ADMIN_TOKEN: 'admin-token', WEBHOOK_ALLOW_LOOPBACK: 'true' },
    [
      tooShort('CHECKOUT_TOKEN_SECRET'),
      tooShort('SANDBOX_ADMIN_TOKEN'),
      'WEBHOOK_ALLOW_LOOPBACK: loopback webhook endpoints are refused',
    ],
  );
  const [one, two] = [loadConfig(STRONG_PRODUCTION_ENV), loadConfig(STRONG_PRODUCTION_ENV)];
  expect(one.SANDBOX_ADMIN_TOKEN).toMatch(/^[\w-]{43}$/);
  expect(one.SANDBOX_ADMIN_TOKEN).not.toBe(two.SANDBOX_ADMIN_TOKEN);
  expect(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' }).WEBHOOK_ALLOW_LOOPBACK).toBe(true);
});

test("the API's metrics have a port of their own, on loopback unless told otherwise", () => {
  expect(loadConfig({})).toMatchObject({ METRICS_PORT: 9463, METRICS_HOST: '127.0.0.1', ENGINE_PORT: 3000 });
});

test('rate limits: sane defaults per minute; TRUST_PROXY names load balancers, never everyone', () => {
  expect(loadConfig({})).toMatchObject({
    ENGINE_RATE_LIMIT_PER_MINUTE: 6_000,
    CALLBACK_RATE_LIMIT_PER_MINUTE: 6_000,
    CHECKOUT_RATE_LIMIT_PER_MINUTE: 300,
    CODEC_RATE_LIMIT_PER_MINUTE: 1_200,
  });
  expect(loadConfig({}).TRUST_PROXY).toBeUndefined();
  expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, 2001:db8::1, fd00::/8' }).TRUST_PROXY).toEqual([
    'loopback',
    '10.0.0.0/8',
    '2001:db8::1',
    'fd00::/8',
  ]);
  for (const everyone of ['true', '*', '0.0.0.0/0', '::/0', 'lb.internal', '10.0.0.0/33'])
    expect(refusal({ TRUST_PROXY: everyone })).toMatch(/TRUST_PROXY/);
});

test("DATABASE_URL names the engine's database; its former name BATCH_STORE_URL is still read, and said to be deprecated", () => {
  const url = 'postgres://engine:secret@db.internal:5432/engine';
  expect(loadConfig({}).DATABASE_URL).toBeUndefined();
  expect(loadConfig({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
  expect(loadConfig({ BATCH_STORE_URL: url }).DATABASE_URL).toBe(url);
  expect(deprecatedVariables({ BATCH_STORE_URL: url })).toEqual([
    { variable: 'BATCH_STORE_URL', replacedBy: 'DATABASE_URL' },
  ]);
  expect(deprecatedVariables({ DATABASE_URL: url })).toEqual([]);
  expect(() => loadConfig({ DATABASE_URL: url, BATCH_STORE_URL: 'postgres://other@db.internal/other' })).toThrow(
    /BATCH_STORE_URL: is the former name of DATABASE_URL/,
  );
});

test('Worker Versioning takes a deployment name and a build id together, or neither (an unversioned worker)', () => {
  const versioned = loadConfig({ WORKER_DEPLOYMENT_NAME: 'payout-engine', WORKER_BUILD_ID: 'v42' }, 'worker');
  expect([versioned.WORKER_DEPLOYMENT_NAME, versioned.WORKER_BUILD_ID]).toEqual(['payout-engine', 'v42']);
  expect(loadConfig({}).WORKER_BUILD_ID).toBeUndefined();
  expect(() => loadConfig({ WORKER_DEPLOYMENT_NAME: 'payout-engine' }, 'worker')).toThrow(
    /WORKER_BUILD_ID: WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID go together/,
  );
  expect(() => loadConfig({ WORKER_BUILD_ID: 'v42' })).toThrow(
    /WORKER_DEPLOYMENT_NAME: WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID go together/,
  );
});

describe('production refuses what would open a door, naming it', () => {
  test('provider callbacks taken without any signature check (PROVIDER_CALLBACK_SIGNATURES=off)', () => {
    expect(refusal({ ...STRONG_PRODUCTION_ENV, PROVIDER_CALLBACK_SIGNATURES: 'off' })).toMatch(
      /PROVIDER_CALLBACK_SIGNATURES: off \(no callback verified\) is refused when NODE_ENV=production/,
    );
    for (const policy of ['required', 'optional'])
      expect(
        loadConfig({ ...STRONG_PRODUCTION_ENV, PROVIDER_CALLBACK_SIGNATURES: policy }).PROVIDER_CALLBACK_SIGNATURES,
      ).toBe(policy);
    expect(loadConfig({ PROVIDER_CALLBACK_SIGNATURES: 'off' }).PROVIDER_CALLBACK_SIGNATURES).toBe('off');
  });

  test.each([
    ['0.0.0.0/1,128.0.0.0/1', /0\.0\.0\.0\/1 is wider than a \/8/],
    ['10.0.0.0/8,0.0.0.0/2,64.0.0.0/2,128.0.0.0/1', /0\.0\.0\.0\/2 is wider than a \/8/],
    ['::/1,8000::/1', /::\/1 holds every IPv4-mapped address[\s\S]*TRUST_PROXY: 8000::\/1 is wider than a \/16/],
    ['2000::/3', /2000::\/3 is wider than a \/16/],
    ['::ffff:0:0/96', /::ffff:0:0\/96 holds every IPv4-mapped address/],
    ['::/64', /::\/64 holds every IPv4-mapped address/],
    ['::ffff:0.0.0.0/97', /::ffff:0\.0\.0\.0\/97 is wider than a \/8/],
  ])('TRUST_PROXY=%s: a share of the internet trusted to name its own address', (value, reason) => {
    expect(refusal({ ...STRONG_PRODUCTION_ENV, TRUST_PROXY: value })).toMatch(
      new RegExp(`TRUST_PROXY: ${reason.source}`),
    );
  });

  test("TRUST_PROXY naming proxies is taken: an address, a private network, a CDN's published ranges, the keywords", () => {
    const proxies =
      '172.31.253.2, 10.0.0.0/8, 173.245.48.0/20, 2a06:98c0::/29, fc00::/7, ::ffff:10.0.0.0/104, loopback, uniquelocal';
    expect(loadConfig({ ...STRONG_PRODUCTION_ENV, TRUST_PROXY: proxies }).TRUST_PROXY).toHaveLength(8);
  });

  test("Temporal's frontend beyond this machine without TLS, unless the network is declared the engine's own", () => {
    expect(refusal({ ...STRONG_PRODUCTION_ENV, TEMPORAL_ADDRESS: 'temporal.internal:7233' })).toMatch(
      /TEMPORAL_ADDRESS: temporal\.internal:7233 is beyond this machine and reached without TLS when NODE_ENV=production/,
    );
    expect(refusal({ ...STRONG_PRODUCTION_ENV, TEMPORAL_ADDRESS: '10.0.4.2:7233' })).toMatch(
      /TEMPORAL_ADDRESS: 10\.0\.4\.2:7233 is beyond this machine/,
    );
    for (const tls of [
      { TEMPORAL_TLS_CA: '/etc/temporal/ca.pem' },
      { TEMPORAL_TLS_CERT: '/etc/temporal/client.pem', TEMPORAL_TLS_KEY: '/etc/temporal/client.key' },
      { TEMPORAL_ALLOW_PLAINTEXT: 'true' },
    ]) {
      expect(() =>
        loadConfig({ ...STRONG_PRODUCTION_ENV, TEMPORAL_ADDRESS: 'temporal.internal:7233', ...tls }),
      ).not.toThrow();
    }
    for (const local of ['127.0.0.1:7233', 'localhost:7233'])
      expect(() => loadConfig({ ...STRONG_PRODUCTION_ENV, TEMPORAL_ADDRESS: local })).not.toThrow();
    expect(() => loadConfig({ TEMPORAL_ADDRESS: 'temporal.internal:7233' })).not.toThrow();
  });

  test("a checkout page loading the provider's script without an integrity hash (PCI DSS 6.4.3); a worker, which serves no page, needs none", () => {
    const { PAYMENT_SHIELD_SCRIPT_INTEGRITY: _integrity, ...withoutHash } = STRONG_PRODUCTION_ENV;
    expect(refusal(withoutHash)).toMatch(
      /PAYMENT_SHIELD_SCRIPT_INTEGRITY: is required when NODE_ENV=production \(PCI DSS 6\.4\.3\)/,
    );
    expect(loadConfig(STRONG_PRODUCTION_ENV).PAYMENT_SHIELD_SCRIPT_INTEGRITY).toBe(
      STRONG_PRODUCTION_ENV.PAYMENT_SHIELD_SCRIPT_INTEGRITY,
    );
    const { ENGINE_API_KEYS: _keys, CHECKOUT_TOKEN_SECRET: _checkout, ...workerEnv } = withoutHash;
    expect(() => loadConfig(workerEnv, 'worker')).not.toThrow();
    // Outside production the page goes without one (the sandbox's script changes with the code).
    const { NODE_ENV: _production, ...local } = withoutHash;
    expect(loadConfig(local).PAYMENT_SHIELD_SCRIPT_INTEGRITY).toBeUndefined();
  });

  test('a codec CORS origin in clear; unset, production allows no browser origin at all', () => {
    const message = refusal({
      ...STRONG_PRODUCTION_ENV,
      CODEC_CORS_ORIGINS: 'https://temporal.example.com,http://localhost:8080',
    });
    expect(message).toMatch(/CODEC_CORS_ORIGINS: http:\/\/localhost:8080 must be https when NODE_ENV=production/);
    expect(message).not.toMatch(/temporal\.example\.com/);
    expect(
      loadConfig({ ...STRONG_PRODUCTION_ENV, CODEC_CORS_ORIGINS: 'https://temporal.example.com' }).CODEC_CORS_ORIGINS,
    ).toEqual(['https://temporal.example.com']);
    expect(loadConfig(STRONG_PRODUCTION_ENV).CODEC_CORS_ORIGINS).toEqual([]);
  });
});

test("a worker reads none of the API's own credentials: production asks it for no API key, checkout key or codec token", () => {
  const { ENGINE_API_KEYS: _keys, CHECKOUT_TOKEN_SECRET: _checkout, ...workerEnv } = STRONG_PRODUCTION_ENV;
  expect(() => loadConfig(workerEnv, 'worker')).not.toThrow();
  // Given anyway, even weak ones, it ignores them; the API refuses the same environment.
  expect(() => loadConfig({ ...workerEnv, ENGINE_API_KEYS: 'short', CODEC_TOKEN: 'short' }, 'worker')).not.toThrow();
  const apiRefusal = refusal(workerEnv);
  for (const name of ['ENGINE_API_KEYS', 'CHECKOUT_TOKEN_SECRET']) expect(apiRefusal).toContain(name);
  // Every other production rule still holds for a worker.
  expect(() => loadConfig({ ...workerEnv, PAYMENT_API_BASE_URL: 'http://api.psp.example.com' }, 'worker')).toThrow(
    /PAYMENT_API_BASE_URL: must be https/,
  );
});
