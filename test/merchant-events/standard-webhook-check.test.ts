/**
 * The Standard Webhooks signing and check (src/merchant-events/standard-webhook-signature.ts) held to what the
 * `standardwebhooks` library, the one a merchant's receiver runs, accepts and refuses: the headers' edges, the
 * timestamp's form and window, the secret's forms, a value list with odd entries.
 */
import { Webhook } from 'standardwebhooks';
import {
  newStandardWebhookSecret,
  standardWebhookHeaders,
  standardWebhookKey,
  verifyStandardWebhook,
} from '../../src/merchant-events/standard-webhook-signature';

const secret = newStandardWebhookSecret();
const rawBody = '{"id":"evt_1","type":"charge.paid","data":{"amount":25.5}}';
const NOW = Math.floor(Date.now() / 1000);
const signed = (at = NOW, secrets = [secret], body: string | Buffer = rawBody) =>
  standardWebhookHeaders('evt_1', secrets, body, at);
const check = (headers: Record<string, string | undefined>, options: { now?: number; body?: string | Buffer } = {}) =>
  verifyStandardWebhook({ rawBody: options.body ?? rawBody, headers, secret, nowSeconds: options.now ?? NOW });
const library = (headers: Record<string, string>, body = rawBody) => {
  try {
    new Webhook(secret).verify(body, headers);
    return 'accepted';
  } catch {
    return 'refused';
  }
};

test('a body given as bytes signs and verifies as the same text does', () => {
  expect(signed(NOW, [secret], Buffer.from(rawBody, 'utf8'))).toEqual(signed());
  expect(check(signed(), { body: Buffer.from(rawBody, 'utf8') })).toEqual({ ok: true });
  expect(library(signed(NOW, [secret], Buffer.from(rawBody, 'utf8')))).toBe('accepted');
});

test('headers padded with spaces, as a framework other than Node may hand them over, verify', () => {
  const padded = Object.fromEntries(Object.entries(signed()).map(([name, value]) => [name, ` ${value} `]));
  expect(check(padded)).toEqual({ ok: true });
  // A repeated header, as Node hands over an array, is one list.
  const value = signed()['webhook-signature'] ?? '';
  expect(
    verifyStandardWebhook({
      rawBody,
      headers: { ...signed(), 'webhook-signature': ['v1,AAAA', value] },
      secret,
      nowSeconds: NOW,
    }),
  ).toEqual({ ok: true });
});

test('each of the three headers missing is told as missing', () => {
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const headers: Record<string, string | undefined> = { ...signed(), [name]: undefined };
    expect({ name, verdict: check(headers) }).toEqual({ name, verdict: { ok: false, reason: 'missing-headers' } });
  }
});

test('the timestamp is whole seconds, digits only: anything around them is refused (the library, reading it with parseInt, is laxer)', () => {
  const headers = signed();
  for (const timestamp of [`x${NOW}`, `${NOW}x`, `${NOW}.5`, '1'.repeat(13)])
    expect({ timestamp, verdict: check({ ...headers, 'webhook-timestamp': timestamp }) }).toEqual({
      timestamp,
      verdict: { ok: false, reason: 'bad-timestamp' },
    });
});

test('the window is 300 s either way, its edge included', () => {
  expect(check(signed(NOW - 300))).toEqual({ ok: true });
  expect(check(signed(NOW + 300))).toEqual({ ok: true });
  expect(check(signed(NOW + 301))).toEqual({ ok: false, reason: 'stale' });
  expect(check(signed(NOW - 301))).toEqual({ ok: false, reason: 'stale' });
  expect(library(signed(NOW + 600))).toBe('refused');
});

test('a value without a comma, or of another version, among the values is skipped; the v1 one still verifies', () => {
  const value = signed()['webhook-signature'] ?? '';
  for (const list of [`v1 ${value}`, `v1, ${value}`, `${value} v2,${value.slice(3)}`])
    expect({ list, verdict: check({ ...signed(), 'webhook-signature': list }) }).toEqual({
      list,
      verdict: { ok: true },
    });
  expect(check({ ...signed(), 'webhook-signature': 'v1' })).toEqual({ ok: false, reason: 'bad-signature' });
  expect(check({ ...signed(), 'webhook-signature': `v2,${value.slice(3)}` })).toEqual({
    ok: false,
    reason: 'bad-signature',
  });
});

test('the secret is read with or without whsec_, as the library reads it; an empty one is refused', () => {
  const bare = secret.slice('whsec_'.length);
  expect(standardWebhookKey(bare)).toEqual(standardWebhookKey(secret));
  expect(standardWebhookKey(secret)).toHaveLength(32);
  const headers = standardWebhookHeaders('evt_1', [bare], rawBody, NOW);
  expect(headers).toEqual(signed());
  expect(new Webhook(bare).verify(rawBody, headers)).toEqual(JSON.parse(rawBody));
  for (const empty of ['whsec_', ''])
    expect(() => standardWebhookKey(empty)).toThrow(new Error('a Standard Webhooks secret is whsec_ and base64'));
});

test('signing refuses no secret and a time that is not whole non-negative seconds; 0 is a time', () => {
  expect(() => standardWebhookHeaders('evt_1', [], rawBody, NOW)).toThrow(
    new Error('standardWebhookHeaders needs at least one secret'),
  );
  for (const at of [NOW + 0.5, -1, Number.MAX_SAFE_INTEGER + 2])
    expect(() => standardWebhookHeaders('evt_1', [secret], rawBody, at)).toThrow(
      new RangeError('nowSeconds must be a non-negative integer (Unix seconds)'),
    );
  expect(standardWebhookHeaders('evt_1', [secret], rawBody, 0)['webhook-timestamp']).toBe('0');
});
