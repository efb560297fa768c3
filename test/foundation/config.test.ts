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

test('production starts with real values; rotation secrets and several API keys are lists', () => {
  const config = loadConfig({
    NODE_ENV: 'production',
    ENGINE_API_KEYS: 'key-one, key-two',
    PAYMENT_API_CLIENT_ID: 'merchant-42',
    PAYMENT_API_CLIENT_SECRET: 's3cret',
    WEBHOOK_SECRET: 'new-secret,old-secret',
    SANDBOX_ADMIN_TOKEN: 'admin-token',
    PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    PAYLOAD_ENCRYPTION_KEY_ID: 'k-2026-11',
  });
  expect(config.ENGINE_API_KEYS).toEqual(['key-one', 'key-two']);
  expect(config.WEBHOOK_SECRET).toEqual(['new-secret', 'old-secret']);
});

test('an encryption key of the wrong size is refused', () => {
  expect(() => loadConfig({ PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/PAYLOAD_ENCRYPTION_KEY: must be 32 bytes/);
});
