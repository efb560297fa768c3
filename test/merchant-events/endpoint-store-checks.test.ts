/**
 * What the webhook endpoint store refuses to keep, whoever calls it (the API checks first; the store checks again):
 * an id not of the `we_` form, an empty URL or secret, a rotation to an empty secret. Refused, nothing is written.
 * And what it must keep reading: a secret sealed by an earlier release.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { NewWebhookEndpoint, WebhookEndpointStore } from '../../src/merchant-events/endpoint-store';
import { SqliteWebhookEndpointStore } from '../../src/merchant-events/sql-endpoint-store';

const T0 = new Date('2026-11-23T12:00:00.000Z');
const ID = `we_${'0123456789abcdef'}${'01234567'}`;
const endpoint = (overrides: Partial<NewWebhookEndpoint> = {}): NewWebhookEndpoint => ({
  id: ID,
  url: 'https://merchant.example.com/hooks',
  events: ['payout.completed'],
  signatureScheme: 'standard-webhooks',
  secret: 'whsec_one',
  createdAt: T0,
  ...overrides,
});

let store: WebhookEndpointStore;
beforeEach(() => {
  store = new SqliteWebhookEndpointStore({ file: ':memory:', encryptionKey: { id: 'k1', key: randomBytes(32) } });
});
afterEach(() => store.close());

test('a secret sealed by an earlier release (format 3, the webhook-secrets subkey of its key) still opens', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'endpoint-checks-'));
  const file = path.join(dir, 'webhook-endpoints.sqlite');
  const released = new SqliteWebhookEndpointStore({
    file,
    encryptionKey: { id: 'released-key', key: Buffer.alloc(32, 0x11) },
  });
  try {
    await released.create(endpoint({ secret: 'whsec_written_now' }));
    // Sealed by the engine as released, for this endpoint id, with the key above: written as it kept it.
    const db = new Database(file);
    db.prepare('UPDATE webhook_endpoint_secrets SET sealed = ? WHERE endpoint_id = ?').run(
      Buffer.from('AwcHBwcHBwcHBwcHB2iuj+mymkgXQ/853IVlthOjP7Y4Den4LhT8RboLW2oT', 'base64'),
      ID,
    );
    db.close();
    expect(await released.secretsOf(ID, T0)).toEqual({ current: 'whsec_released' });
  } finally {
    await released.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an id is we_ and 24 lower-case hex digits, nothing before or after', async () => {
  for (const id of [
    `x${ID}`,
    `${ID}0`,
    ID.slice(0, -1),
    ID.toUpperCase().replace('WE_', 'we_'),
    `we_${'g'.repeat(24)}`,
  ])
    await expect(store.create(endpoint({ id }))).rejects.toThrow(/webhook endpoint id/);
  expect(await store.list()).toEqual([]);
  expect(await store.create(endpoint())).toMatchObject({ id: ID });
});

test('an empty URL or secret is refused', async () => {
  await expect(store.create(endpoint({ url: '' }))).rejects.toThrow();
  await expect(store.create(endpoint({ secret: '' }))).rejects.toThrow();
  expect(await store.list()).toEqual([]);
});

test('a rotation to an empty secret is refused, and the secret in use stays the only one', async () => {
  await store.create(endpoint());
  await expect(
    store.rotateSecret(ID, { secret: '', previousValidUntil: new Date(T0.getTime() + 60_000), now: T0 }),
  ).rejects.toThrow();
  expect(await store.secretsOf(ID, T0)).toEqual({ current: 'whsec_one' });
  expect(await store.get(ID)).not.toHaveProperty('secretRotatedAt');
});
