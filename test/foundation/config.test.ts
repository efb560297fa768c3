import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/config/env';

test('a fresh environment gets the documented local defaults', () => {
  const config = loadConfig({});
  expect(config).toMatchObject({
    ENGINE_PORT: 3000,
    SANDBOX_PORT: 4010,
    TEMPORAL_ADDRESS: '127.0.0.1:7233',
    TEMPORAL_UI_PORT: 8233,
    TEMPORAL_NAMESPACE: 'default',
    ENGINE_API_KEYS: ['dev-api-key'],
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
  expect(loadConfig({ SANDBOX_PORT: '4020', PAYMENT_API_BASE_URL: 'https://psp.example.com/' }).PAYMENT_API_BASE_URL).toBe('https://psp.example.com');
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
    loadConfig({ NODE_ENV: 'production' });
  } catch (error) {
    message = (error as Error).message;
  }
  for (const name of ['ENGINE_API_KEYS', 'PAYMENT_API_CLIENT_ID', 'PAYMENT_API_CLIENT_SECRET', 'WEBHOOK_SECRET', 'SANDBOX_ADMIN_TOKEN', 'PAYLOAD_ENCRYPTION_KEY']) {
    expect(message).toContain(name);
  }
});

const STRONG_PRODUCTION_ENV = {
  NODE_ENV: 'production',
  ENGINE_API_KEYS: 'key-one-0123456789abcdefghij, key-two-0123456789abcdefghij',
  PAYMENT_API_CLIENT_ID: 'merchant-42',
  PAYMENT_API_CLIENT_SECRET: 's3cret',
  WEBHOOK_SECRET: 'new-secret-0123456789abcdefghij,old-secret-0123456789abcdefghij',
  SANDBOX_ADMIN_TOKEN: 'admin-token',
  PAYLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  PAYLOAD_ENCRYPTION_KEY_ID: 'k-2026-11',
};

test('production starts with real values; rotation secrets and several API keys are lists', () => {
  const config = loadConfig(STRONG_PRODUCTION_ENV);
  expect(config.ENGINE_API_KEYS).toEqual(['key-one-0123456789abcdefghij', 'key-two-0123456789abcdefghij']);
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

test.each([
  ['all zero', Buffer.alloc(32)],
  ['one repeated byte', Buffer.alloc(32, 1)],
  ['hex digits used as bytes', Buffer.from(randomBytes(16).toString('hex'))],
  ['a short word repeated', Buffer.from('payout'.repeat(6).slice(0, 32))],
])('production refuses a payload key that is not random bytes: %s', (_label, key) => {
  expect(refusal({ ...STRONG_PRODUCTION_ENV, PAYLOAD_ENCRYPTION_KEY: key.toString('base64') })).toMatch(/PAYLOAD_ENCRYPTION_KEY: is not 32 random bytes/);
});

test('production refuses an API key, a webhook secret or a codec token shorter than 24 characters', () => {
  const message = refusal({
    ...STRONG_PRODUCTION_ENV,
    ENGINE_API_KEYS: 'key-one-0123456789abcdefghij,short-key',
    WEBHOOK_SECRET: 'only-20-characters-x',
    CODEC_TOKEN: 'codec-token-23-chars-xx',
  });
  expect(message).toMatch(/ENGINE_API_KEYS: each value must be at least 24 characters/);
  expect(message).toMatch(/WEBHOOK_SECRET: each value must be at least 24 characters/);
  expect(message).toMatch(/CODEC_TOKEN: each value must be at least 24 characters/);
  // Outside production the same values are fine: local stacks and tests use short demo values.
  expect(() => loadConfig({ ...STRONG_PRODUCTION_ENV, NODE_ENV: 'development', ENGINE_API_KEYS: 'short-key' })).not.toThrow();
});

test('previous payload keys are id:base64key pairs of 32 bytes, each id distinct from the active one', () => {
  const previous = `k-2026-05:${randomBytes(32).toString('base64')}, k-2025-11:${randomBytes(32).toString('base64')}`;
  expect(loadConfig({ ...STRONG_PRODUCTION_ENV, PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: previous }).PAYLOAD_ENCRYPTION_PREVIOUS_KEYS).toHaveLength(2);
  expect(refusal({ PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: randomBytes(32).toString('base64') })).toMatch(/PAYLOAD_ENCRYPTION_PREVIOUS_KEYS.*id:base64key/);
  expect(refusal({ PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: `old:${randomBytes(16).toString('base64')}` })).toMatch(/32 bytes/);
  expect(refusal({ ...STRONG_PRODUCTION_ENV, PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: `k-2026-11:${randomBytes(32).toString('base64')}` })).toMatch(
    /PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: every key id must differ/,
  );
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
  expect(refusal({ CODEC_CORS_ORIGINS: 'https://temporal.example.com/ui' })).toMatch(/CODEC_CORS_ORIGINS.*must be an origin/);
});

test('an encryption key of the wrong size is refused', () => {
  expect(() => loadConfig({ PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/PAYLOAD_ENCRYPTION_KEY: must be 32 bytes/);
});
