import { ReplayGuard, signWebhook, verifyWebhook } from '../../src/payment-api/webhook-signature';
import { merchantWebhookHeaders, verifyMerchantWebhook } from '../../src/webhooks/merchant-webhook-signature';
import { createHmac } from 'node:crypto';

const NOW = 1_750_000_000;
const body = Buffer.from(JSON.stringify({ transaction_id: 'tx-1', status: 'COMPLETED', amount: 25, fee: 1.25, total: 26.25 }));

function verify(overrides: Partial<Parameters<typeof verifyWebhook>[0]> & { signed?: { timestamp: string; signature: string } } = {}) {
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
  expect(verify({ signed: signWebhook(['current-secret'], body, NOW - 30), toleranceSeconds: 10 })).toEqual({ ok: false, reason: 'stale' });
});

test('missing or malformed headers are told apart', () => {
  const signed = signWebhook(['current-secret'], body, NOW);
  expect(verify({ timestampHeader: undefined })).toEqual({ ok: false, reason: 'missing-headers' });
  expect(verify({ signatureHeader: '' })).toEqual({ ok: false, reason: 'missing-headers' });
  expect(verify({ signed: { ...signed, timestamp: '2025-06-15T00:00:00Z' } })).toEqual({ ok: false, reason: 'bad-timestamp' });
  expect(verify({ signed: { ...signed, timestamp: '-5' } })).toEqual({ ok: false, reason: 'bad-timestamp' });
  expect(verify({ signed: { ...signed, signature: 'v1=abc' } })).toEqual({ ok: false, reason: 'bad-signature' });
  expect(verify({ signed: { ...signed, signature: signed.signature.toUpperCase() } })).toEqual({ ok: false, reason: 'bad-signature' });
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
    expect(verify({ signed: signWebhook(['old-secret'], body, NOW), secrets: ['new-secret', 'old-secret'] })).toEqual({ ok: true });
    expect(verify({ signed: signWebhook(['new-secret'], body, NOW), secrets: ['new-secret', 'old-secret'] })).toEqual({ ok: true });
  });

  test('a receiver with neither secret refuses', () => {
    expect(verify({ signed: rotated, secrets: ['third-secret'] })).toEqual({ ok: false, reason: 'bad-signature' });
    expect(verify({ signed: rotated, secrets: [] })).toEqual({ ok: false, reason: 'bad-signature' });
  });
});

test('signing refuses no secret, an empty secret or a non-integer timestamp', () => {
  expect(() => signWebhook([], body, NOW)).toThrow();
  expect(() => signWebhook([''], body, NOW)).toThrow();
  expect(() => signWebhook(['s'], body, NOW + 0.5)).toThrow();
});

describe('replays within the window', () => {
  const request = (signed: { timestamp: string; signature: string }, extra?: string) => ({ timestampHeader: signed.timestamp, signatureHeader: signed.signature, ...(extra === undefined ? {} : { extra }) });

  test('a request is taken once while fresh; its sender\'s retry, signed again, is another request', () => {
    const guard = new ReplayGuard();
    const first = signWebhook(['s'], body, NOW);
    expect(guard.claim(request(first), NOW)).toBe(true);
    expect(guard.claim(request(first), NOW + 299)).toBe(false);
    expect(guard.claim(request(signWebhook(['s'], body, NOW + 1)), NOW + 1)).toBe(true);
    // The same event id with another signature, and the same signature for another id, are other requests.
    expect(guard.claim(request(first, 'evt_1'), NOW)).toBe(true);
    expect(guard.claim(request(first, 'evt_2'), NOW)).toBe(true);
    expect(guard.claim(request(first, 'evt_1'), NOW)).toBe(false);
  });

  test('a request the receiver released (it could not take it) is taken when sent again', () => {
    const guard = new ReplayGuard();
    const signed = request(signWebhook(['s'], body, NOW));
    expect(guard.claim(signed, NOW)).toBe(true);
    guard.release(signed);
    expect(guard.claim(signed, NOW + 5)).toBe(true);
  });

  test('what is past its window is forgotten (the signature check calls it stale), and memory stays bounded', () => {
    const guard = new ReplayGuard({ toleranceSeconds: 300, maxEntries: 3 });
    for (let second = 0; second < 3; second += 1) guard.claim(request(signWebhook(['s'], body, NOW + second)), NOW + second);
    expect(guard.size).toBe(3);
    guard.claim(request(signWebhook(['s'], body, NOW + 10)), NOW + 10);
    expect(guard.size).toBe(3);
    guard.claim(request(signWebhook(['s'], body, NOW + 400)), NOW + 400);
    expect(guard.size).toBe(1);
  });
});

test('the merchant helper with a replay guard refuses a request it accepted before, by id, timestamp and signature', () => {
  const replays = new ReplayGuard();
  const rawBody = JSON.stringify({ id: 'evt_1', type: 'payout.completed' });
  const headersAt = (seconds: number, id = 'evt_1') => {
    const headers = merchantWebhookHeaders(id, ['whsec_test'], rawBody, seconds);
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  };
  const check = (headers: Record<string, string>) => verifyMerchantWebhook({ rawBody, headers, secret: 'whsec_test', nowSeconds: NOW, replays });
  const captured = headersAt(NOW);
  expect(check(captured)).toEqual({ ok: true });
  expect(check(captured)).toEqual({ ok: false, reason: 'replayed' });
  // The engine's next attempt of the same event is signed afresh: not a replay (the receiver de-duplicates events by id itself).
  expect(check(headersAt(NOW + 30))).toEqual({ ok: true });
  // Without a guard the helper checks the signature and the window only.
  expect(verifyMerchantWebhook({ rawBody, headers: captured, secret: 'whsec_test', nowSeconds: NOW })).toEqual({ ok: true });
});
