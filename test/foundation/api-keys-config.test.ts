/**
 * The API keys as the configuration reads them: ENGINE_API_KEYS in its three forms (`secret`, `name:secret`,
 * `name:secret:scope+scope`), ENGINE_API_KEYS_FILE (JSON, every key naming its scopes), one of the two; a refusal
 * names the variable and the entry by position, never the secret. The API's answers to these keys:
 * test/api/api-key-scopes.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { API_KEY_SCOPES, apiKeysText, DEFAULT_KEY_SCOPES } from '../../src/config/api-keys';
import { loadConfig } from '../../src/config/env';

const folder = mkdtempSync(path.join(os.tmpdir(), 'api-keys-config-'));
function keysFile(content: unknown): string {
  const file = path.join(folder, `${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function refusal(env: Record<string, string>, reader: 'api' | 'worker' = 'api'): string {
  try {
    loadConfig(env, reader);
  } catch (error) {
    return (error as Error).message;
  }
  return '(accepted)';
}

const SECRET = 'a-secret-of-the-test-0123456789';

test('an entry without scopes, bare or named, gets the default scopes; with them, exactly those', () => {
  const keys = loadConfig({
    ENGINE_API_KEYS: ` bare-secret , back-end:named-secret, ops:ops-secret:operator+codec, all:all-secret:${API_KEY_SCOPES.join('+')}`,
  }).ENGINE_API_KEYS;
  expect(keys).toEqual([
    { name: 'key-1', secret: 'bare-secret', scopes: DEFAULT_KEY_SCOPES },
    { name: 'back-end', secret: 'named-secret', scopes: DEFAULT_KEY_SCOPES },
    { name: 'ops', secret: 'ops-secret', scopes: ['operator', 'codec'] },
    { name: 'all', secret: 'all-secret', scopes: API_KEY_SCOPES },
  ]);
  // Written back (for a child process), every key names its scopes and reads as the same keys.
  expect(loadConfig({ ENGINE_API_KEYS: apiKeysText(keys) }).ENGINE_API_KEYS).toEqual(keys);
});

test.each([
  [
    'an unknown scope',
    `ops:${SECRET}:operator+admin`,
    /ENGINE_API_KEYS\.0\.scopes\.1: a scope is one of payouts:write, charges:write, infractions:write, webhooks:write, read, operator, codec/,
  ],
  ['an empty scope list', `x:y:read,ops:${SECRET}:`, /ENGINE_API_KEYS\.1\.scopes\.0: a scope is one of/],
  [
    'a secret given twice',
    `a:${SECRET},b:${SECRET}:read`,
    /ENGINE_API_KEYS\.1\.secret: the secret of an earlier key is given again/,
  ],
  [
    'a name given twice',
    `ops:${SECRET}:read,ops:other-secret:read`,
    /ENGINE_API_KEYS\.1\.name: the name ops is given to an earlier key too/,
  ],
  ['a name with a space', `my ops:${SECRET}`, /ENGINE_API_KEYS\.0\.name: a name is 1 to 64 letters/],
])('ENGINE_API_KEYS with %s stops start-up, naming the entry and not its secret', (_label, value, message) => {
  const said = refusal({ ENGINE_API_KEYS: value });
  expect(said).toMatch(message);
  expect(said).not.toContain(SECRET);
});

test('ENGINE_API_KEYS_FILE: a JSON list of keys, each naming its scopes', () => {
  const file = keysFile([
    { name: 'payouts-service', secret: SECRET, scopes: ['payouts:write', 'read'] },
    { name: 'temporal-cli', secret: 'codec-only-secret', scopes: ['codec'] },
  ]);
  expect(loadConfig({ ENGINE_API_KEYS_FILE: file }).ENGINE_API_KEYS).toEqual([
    { name: 'payouts-service', secret: SECRET, scopes: ['payouts:write', 'read'] },
    { name: 'temporal-cli', secret: 'codec-only-secret', scopes: ['codec'] },
  ]);
  // Read once, at start-up: the config holds the keys, not the path.
  expect(loadConfig({ ENGINE_API_KEYS_FILE: file })).not.toHaveProperty('ENGINE_API_KEYS_FILE');
});

test.each([
  [
    'a file that is not there',
    () => path.join(folder, 'missing.json'),
    /ENGINE_API_KEYS_FILE: \S+missing\.json cannot be read \(ENOENT\)/,
  ],
  [
    'a file that is not JSON',
    () => keysFile(`[{"name":"ops","secret":"${SECRET}"`),
    /ENGINE_API_KEYS_FILE: \S+ is not JSON/,
  ],
  ['a key without scopes', () => keysFile([{ name: 'ops', secret: SECRET }]), /ENGINE_API_KEYS_FILE\.0\.scopes: /],
  [
    'an unknown scope',
    () => keysFile([{ name: 'ops', secret: SECRET, scopes: ['admin'] }]),
    /ENGINE_API_KEYS_FILE\.0\.scopes\.0: a scope is one of/,
  ],
  [
    'a field of no key',
    () => keysFile([{ name: 'ops', secret: SECRET, scopes: ['read'], role: 'admin' }]),
    /ENGINE_API_KEYS_FILE\.0: Unrecognized key: "role"/,
  ],
  ['no key at all', () => keysFile([]), /ENGINE_API_KEYS_FILE: must name at least one key/],
])('ENGINE_API_KEYS_FILE with %s stops start-up, naming it and not the secret', (_label, file, message) => {
  const said = refusal({ ENGINE_API_KEYS_FILE: file() });
  expect(said).toMatch(message);
  expect(said).not.toContain(SECRET);
});

test('the keys come from one place: both variables set stop start-up', () => {
  const file = keysFile([{ name: 'ops', secret: SECRET, scopes: ['read'] }]);
  expect(refusal({ ENGINE_API_KEYS: 'other-secret', ENGINE_API_KEYS_FILE: file })).toMatch(
    /ENGINE_API_KEYS_FILE: and ENGINE_API_KEYS both give the API keys: set one of them/,
  );
});

test("production holds the file's secrets to the same rules, naming ENGINE_API_KEYS_FILE; a worker never reads the file", () => {
  const production = refusal({
    NODE_ENV: 'production',
    ENGINE_API_KEYS_FILE: keysFile([
      { name: 'ops', secret: 'short', scopes: ['read'] },
      { name: 'demo', secret: 'dev-api-key', scopes: ['read'] },
    ]),
  });
  expect(production).toMatch(
    /ENGINE_API_KEYS_FILE: each value must be at least 24 characters when NODE_ENV=production/,
  );
  expect(production).toMatch(/ENGINE_API_KEYS_FILE: the demo value is refused when NODE_ENV=production/);
  expect(production).not.toMatch(/ENGINE_API_KEYS:/);
  // A worker ignores the API's keys, the file included: a path it cannot read does not stop it.
  expect(refusal({ ENGINE_API_KEYS_FILE: path.join(folder, 'missing.json') }, 'worker')).toBe('(accepted)');
});
