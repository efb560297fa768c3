import { hmacV1Verifier } from '../../src/payment-api/callback-verifier';
import {
  ReplayGuard,
  signedMessage,
  signWebhook,
  verifyWebhook,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/payment-api/webhook-signature';
import { merchantWebhookHeaders, verifyMerchantWebhook } from '../../src/merchant-events/merchant-webhook-signature';
import { createHash, createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import {
  newStandardWebhookSecret,
  standardWebhookHeaders,
  verifyStandardWebhook,
} from '../../src/merchant-events/standard-webhook-signature';

const NOW = 1_750_000_000;
const SECRET = newStandardWebhookSecret();
const body = Buffer.from(
  JSON.stringify({ transaction_id: 'tx-1', status: 'COMPLETED', amount: 25, fee: 1.25, total: 26.25 }),
);

function verify(
  overrides: Partial<Parameters<typeof verifyWebhook>[0]> & { signed?: { timestamp: string; signature: string } } = {},
) {
  const signed = overrides.signed ?? signWebhook(['current-secret'], body, NOW);
  return verifyWebhook({
    secrets: ['current-secret'],
    rawBody: body,
    timestampHeader: signed.timestamp,
    signatureHeader: signed.signature,
    nowSeconds: NOW,
    ...overrides,
  });
}

test('the signature is v1= + lowercase hex HMAC-SHA256 over "<timestamp>.<raw body>"', () => {
  const signed = signWebhook(['current-secret'], body, NOW);
  const expected = createHmac('sha256', 'current-secret').update(`${NOW}.`).update(body).digest('hex');
  expect(signed).toEqual({ timestamp: String(NOW), signature: `v1=${expected}` });
});

test('a signed body verifies', () => {
  expect(verify()).toEqual({ ok: true });
});

test('a string body and its bytes sign the same', () => {
  expect(signWebhook(['s'], body.toString('utf8'), NOW)).toEqual(signWebhook(['s'], body, NOW));
});

test('a one-byte change in the body fails', () => {
  const tampered = Buffer.from(body);
  tampered[tampered.length - 2] = tampered[tampered.length - 2]! ^ 1;
  expect(verify({ rawBody: tampered })).toEqual({ ok: false, reason: 'bad-signature' });
});

test('a signature made with another secret fails', () => {
  expect(verify({ signed: signWebhook(['someone-else'], body, NOW) })).toEqual({ ok: false, reason: 'bad-signature' });
});

test('a timestamp changed after signing fails', () => {
  const signed = signWebhook(['current-secret'], body, NOW);
  expect(verify({ signed: { ...signed, timestamp: String(NOW + 1) } })).toEqual({ ok: false, reason: 'bad-signature' });
});

test('a timestamp more than 300 s away either way is stale; exactly 300 s is accepted', () => {
  expect(verify({ signed: signWebhook(['current-secret'], body, NOW - 301) })).toEqual({ ok: false, reason: 'stale' });
  expect(verify({ signed: signWebhook(['current-secret'], body, NOW + 301) })).toEqual({ ok: false, reason: 'stale' });
  expect(verify({ signed: signWebhook(['current-secret'], body, NOW - 300) })).toEqual({ ok: true });
  expect(verify({ signed: signWebhook(['current-secret'], body, NOW - 30), toleranceSeconds: 10 })).toEqual({
    ok: false,
    reason: 'stale',
  });
});

test('missing or malformed headers are told apart', () => {
  const signed = signWebhook(['current-secret'], body, NOW);
  expect(verify({ timestampHeader: undefined })).toEqual({ ok: false, reason: 'missing-headers' });
  expect(verify({ signatureHeader: '' })).toEqual({ ok: false, reason: 'missing-headers' });
  expect(verify({ signed: { ...signed, timestamp: '2025-06-15T00:00:00Z' } })).toEqual({
    ok: false,
    reason: 'bad-timestamp',
  });
  expect(verify({ signed: { ...signed, timestamp: '-5' } })).toEqual({ ok: false, reason: 'bad-timestamp' });
  expect(verify({ signed: { ...signed, signature: 'v1=abc' } })).toEqual({ ok: false, reason: 'bad-signature' });
  expect(verify({ signed: { ...signed, signature: signed.signature.toUpperCase() } })).toEqual({
    ok: false,
    reason: 'bad-signature',
  });
});

describe('secret rotation', () => {
  const rotated = signWebhook(['new-secret', 'old-secret'], body, NOW);

  test('the header carries one v1= value per secret, separated by single spaces', () => {
    expect(rotated.signature).toMatch(/^v1=[0-9a-f]{64} v1=[0-9a-f]{64}$/);
  });

  test('a receiver that knows only the old or only the new secret verifies', () => {
    expect(verify({ signed: rotated, secrets: ['old-secret'] })).toEqual({ ok: true });
    expect(verify({ signed: rotated, secrets: ['new-secret'] })).toEqual({ ok: true });
  });

  test('a receiver that accepts both secrets verifies a sender that signs with either', () => {
    expect(verify({ signed: signWebhook(['old-secret'], body, NOW), secrets: ['new-secret', 'old-secret'] })).toEqual({
      ok: true,
    });
    expect(verify({ signed: signWebhook(['new-secret'], body, NOW), secrets: ['new-secret', 'old-secret'] })).toEqual({
      ok: true,
    });
  });

  test('a receiver with neither secret refuses', () => {
    expect(verify({ signed: rotated, secrets: ['third-secret'] })).toEqual({ ok: false, reason: 'bad-signature' });
    expect(verify({ signed: rotated, secrets: [] })).toEqual({ ok: false, reason: 'bad-signature' });
  });
});

test('signing refuses no secret, an empty secret among others, or a timestamp that is not a whole second since 1970', () => {
  expect(() => signWebhook([], body, NOW)).toThrow('signWebhook needs at least one non-empty secret');
  expect(() => signWebhook([''], body, NOW)).toThrow('signWebhook needs at least one non-empty secret');
  expect(() => signWebhook(['s', ''], body, NOW)).toThrow('signWebhook needs at least one non-empty secret');
  for (const bad of [NOW + 0.5, -1])
    expect(() => signWebhook(['s'], body, bad)).toThrow(
      new RangeError('timestampSeconds must be a non-negative integer (Unix seconds)'),
    );
  expect(signWebhook(['s'], body, 0).timestamp).toBe('0');
});

test("the headers are spelled as the provider's spec spells them, and a callback sent under those names verifies", () => {
  expect([WEBHOOK_TIMESTAMP_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_ID_HEADER]).toEqual([
    'X-Service-Webhook-Timestamp',
    'X-Service-Webhook-Signature',
    'X-Service-Webhook-Id',
  ]);
  const signed = signWebhook(['s'], body, NOW);
  const headers: Record<string, string> = {
    'X-Service-Webhook-Timestamp': signed.timestamp,
    'X-Service-Webhook-Signature': signed.signature,
  };
  const verdict = hmacV1Verifier(['s']).verify({ rawBody: body, header: (name) => headers[name], nowSeconds: NOW });
  expect(verdict.kind).toBe('verified');
});

test('headers padded with spaces, or repeated (an array, one value each), verify', () => {
  const rotated = signWebhook(['new-secret', 'old-secret'], body, NOW);
  const [, oldValue] = rotated.signature.split(' ');
  expect(
    verify({ signed: { timestamp: ` ${rotated.timestamp} `, signature: ` ${oldValue!} ` }, secrets: ['old-secret'] }),
  ).toEqual({
    ok: true,
  });
  expect(
    verify({
      timestampHeader: [rotated.timestamp],
      signatureHeader: rotated.signature.split(' '),
      secrets: ['old-secret'],
    }),
  ).toEqual({ ok: true });
});

test('a value of another scheme is not read as v1, even when it carries a valid v1 MAC', () => {
  const hex = signWebhook(['current-secret'], body, NOW).signature.slice('v1='.length);
  expect(verify({ signed: { timestamp: String(NOW), signature: `v2=${hex}` } })).toEqual({
    ok: false,
    reason: 'bad-signature',
  });
});

test("an empty secret in the receiver's list (an unset previous secret) does not let a MAC under the empty key verify", () => {
  const forged = createHmac('sha256', '').update(`${NOW}.`).update(body).digest('hex');
  expect(
    verify({ signed: { timestamp: String(NOW), signature: `v1=${forged}` }, secrets: ['', 'current-secret'] }),
  ).toEqual({ ok: false, reason: 'bad-signature' });
  expect(verify({ secrets: ['', 'current-secret'] })).toEqual({ ok: true });
});

describe('replays within the window', () => {
  const message = (signed: { timestamp: string }, id?: string) => signedMessage(signed.timestamp, body, id);

  test("a message is taken once while fresh; its sender's retry, signed again, is another message", () => {
    const guard = new ReplayGuard();
    const first = signWebhook(['s'], body, NOW);
    expect(guard.claim(message(first), NOW)).toBe(true);
    expect(guard.claim(message(first), NOW + 299)).toBe(false);
    expect(guard.claim(message(signWebhook(['s'], body, NOW + 1)), NOW + 1)).toBe(true);
    // Another body, or the same body under another signed id, is another message.
    expect(guard.claim(signedMessage(first.timestamp, Buffer.from('{}')), NOW)).toBe(true);
    expect(guard.claim(message(first, 'evt_1'), NOW)).toBe(true);
    expect(guard.claim(message(first, 'evt_2'), NOW)).toBe(true);
    expect(guard.claim(message(first, 'evt_1'), NOW)).toBe(false);
  });

  test('a replay in the last second of the window (300 s after signing, which the check still accepts) is refused', () => {
    const guard = new ReplayGuard({ toleranceSeconds: 300 });
    const signed = signWebhook(['s'], body, NOW);
    expect(guard.claim(message(signed), NOW)).toBe(true);
    expect(verify({ signed, nowSeconds: NOW + 300, secrets: ['s'] })).toEqual({ ok: true });
    expect(guard.claim(message(signed), NOW + 300)).toBe(false);
  });

  test("a message's identity is text: the base64url SHA-256 of the signed id's line, if any, and the raw body", () => {
    const sha = (text: string) => createHash('sha256').update(text).digest('base64url');
    expect(signedMessage('1', body)).toEqual({ timestamp: '1', content: sha(body.toString()) });
    expect(signedMessage('1', body, 'evt_1')).toEqual({ timestamp: '1', content: sha(`evt_1\n${body.toString()}`) });
  });

  test('a message the receiver released (it could not take it) is taken when sent again', () => {
    const guard = new ReplayGuard();
    const signed = message(signWebhook(['s'], body, NOW));
    expect(guard.claim(signed, NOW)).toBe(true);
    guard.release(signed);
    expect(guard.claim(signed, NOW + 5)).toBe(true);
  });

  test('what is past its window is forgotten (the signature check calls it stale), and memory stays bounded', () => {
    const guard = new ReplayGuard({ toleranceSeconds: 300, maxEntries: 3 });
    for (let second = 0; second < 3; second += 1)
      guard.claim(message(signWebhook(['s'], body, NOW + second)), NOW + second);
    expect(guard.size).toBe(3);
    guard.claim(message(signWebhook(['s'], body, NOW + 10)), NOW + 10);
    expect(guard.size).toBe(3);
    guard.claim(message(signWebhook(['s'], body, NOW + 400)), NOW + 400);
    expect(guard.size).toBe(1);
  });

  test('a provider callback replayed with a value prepended to its signature header still verifies, and is refused as the same message', () => {
    const guard = new ReplayGuard();
    const verifier = hmacV1Verifier(['s']);
    const signed = signWebhook(['s'], body, NOW);
    const take = (signature: string) => {
      const headers: Record<string, string> = {
        [WEBHOOK_TIMESTAMP_HEADER]: signed.timestamp,
        [WEBHOOK_SIGNATURE_HEADER]: signature,
      };
      const verdict = verifier.verify({ rawBody: body, header: (name) => headers[name], nowSeconds: NOW });
      if (verdict.kind !== 'verified') throw new Error(`not verified: ${verdict.kind}`);
      return guard.claim(verdict.signed, NOW);
    };
    expect(take(signed.signature)).toBe(true);
    for (const prefixed of [
      `v1=00,${signed.signature}`,
      `v1=00 ${signed.signature}`,
      `${signed.signature},v1=ff`,
      `v2=x ${signed.signature}`,
    ])
      expect(take(prefixed)).toBe(false);
  });
});

test('the merchant helper with a replay guard refuses a message it accepted before, however its signature header is written', () => {
  const replays = new ReplayGuard();
  const rawBody = JSON.stringify({ id: 'evt_1', type: 'payout.completed' });
  const headersAt = (seconds: number, id = 'evt_1') =>
    merchantWebhookHeaders('standard-webhooks', id, [SECRET], rawBody, seconds);
  const check = (headers: Record<string, string>) =>
    verifyMerchantWebhook({ rawBody, headers, secret: SECRET, nowSeconds: NOW, replays });
  const captured = headersAt(NOW);
  expect(check(captured)).toEqual({ ok: true });
  expect(check(captured)).toEqual({ ok: false, reason: 'replayed' });
  // The Standard Webhooks list is space-separated: a value prepended (or appended) still verifies, and is the same message.
  for (const signature of [
    `v1,AAAA ${captured['webhook-signature']}`,
    `v2,x ${captured['webhook-signature']}`,
    `${captured['webhook-signature']} v1,AAAA`,
  ]) {
    expect(
      verifyMerchantWebhook({
        rawBody,
        headers: { ...captured, 'webhook-signature': signature },
        secret: SECRET,
        nowSeconds: NOW,
      }),
    ).toEqual({ ok: true });
    expect(check({ ...captured, 'webhook-signature': signature })).toEqual({ ok: false, reason: 'replayed' });
  }
  // The engine's next attempt of the same event is signed afresh: not a replay (the receiver de-duplicates events by id itself).
  expect(check(headersAt(NOW + 30))).toEqual({ ok: true });
  // Without a guard the helper checks the signature and the window only.
  expect(verifyMerchantWebhook({ rawBody, headers: captured, secret: SECRET, nowSeconds: NOW })).toEqual({ ok: true });
});

describe('Standard Webhooks', () => {
  const SECRET_2 = newStandardWebhookSecret();
  const rawBody = JSON.stringify({ id: 'evt_0123456789abcdef01234567', type: 'payout.completed' });
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  test("the specification's example: v1, and the base64 HMAC-SHA256 of id.timestamp.body under the bytes after whsec_", () => {
    const headers = standardWebhookHeaders(
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      '{"test": 2432232314}',
      1614265330,
    );
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  test('the standardwebhooks library verifies what the engine signs, with either secret during a rotation, and refuses a change', () => {
    const headers = merchantWebhookHeaders(
      'standard-webhooks',
      'evt_0123456789abcdef01234567',
      [SECRET_2, SECRET],
      rawBody,
      nowSeconds(),
    );
    expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    for (const secret of [SECRET, SECRET_2])
      expect(new Webhook(secret).verify(rawBody, headers)).toEqual(JSON.parse(rawBody));
    expect(() => new Webhook(newStandardWebhookSecret()).verify(rawBody, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(SECRET).verify(rawBody.replace('completed', 'failed'), headers)).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(SECRET).verify(rawBody, { ...headers, 'webhook-id': 'evt_another' })).toThrow(
      WebhookVerificationError,
    );
  });

  test("the engine's check accepts what the library signs, and refuses what is stale, forged or of an unknown version", () => {
    const at = nowSeconds();
    const signed = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(at),
      'webhook-signature': new Webhook(SECRET).sign('evt_1', new Date(at * 1000), rawBody),
    };
    const check = (headers: Record<string, string>, now = at) =>
      verifyStandardWebhook({ rawBody, headers, secret: SECRET, nowSeconds: now });
    expect(check(signed)).toEqual({ ok: true });
    expect(check({ ...signed, 'webhook-signature': `v2,abc ${signed['webhook-signature']}` })).toEqual({ ok: true });
    expect(check(signed, at + 301)).toEqual({ ok: false, reason: 'stale' });
    expect(check({ ...signed, 'webhook-signature': signed['webhook-signature'].replace('v1,', 'v2,') })).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    expect(check({ ...signed, 'webhook-id': 'evt_2' })).toEqual({ ok: false, reason: 'bad-signature' });
    expect(check({ 'webhook-id': 'evt_1', 'webhook-signature': signed['webhook-signature'] })).toEqual({
      ok: false,
      reason: 'missing-headers',
    });
    expect(check({ ...signed, 'webhook-timestamp': '1e9' })).toEqual({ ok: false, reason: 'bad-timestamp' });
    // Read strictly: a secret with text after its base64 is not taken for the same key.
    expect(() => verifyStandardWebhook({ rawBody, headers: signed, secret: `${SECRET}x`, nowSeconds: at })).toThrow(
      /whsec_ and base64/,
    );
  });

  test('a legacy endpoint gets the X-Webhook-* set as before and the Standard Webhooks set beside it', () => {
    const at = nowSeconds();
    const headers = merchantWebhookHeaders('legacy', 'evt_0123456789abcdef01234567', [SECRET], rawBody, at);
    expect(headers).toMatchObject({
      'X-Webhook-Id': 'evt_0123456789abcdef01234567',
      'X-Webhook-Timestamp': String(at),
      'webhook-id': 'evt_0123456789abcdef01234567',
    });
    expect(headers['X-Webhook-Signature']).toBe(
      `v1=${createHmac('sha256', SECRET).update(`${at}.${rawBody}`).digest('hex')}`,
    );
    expect(new Webhook(SECRET).verify(rawBody, headers)).toEqual(JSON.parse(rawBody));
    // A secret issued before (base64url) signs both sets; the engine's check reads it, as its receiver would after no rotation.
    const oldSecret = `whsec_${'-_'.repeat(21)}A`;
    const old = merchantWebhookHeaders('legacy', 'evt_1', [oldSecret], rawBody, at);
    expect(verifyStandardWebhook({ rawBody, headers: old, secret: oldSecret, nowSeconds: at })).toEqual({ ok: true });
  });
});
