import { checkoutToken, checkoutTokenKey, verifyCheckoutToken } from '../../src/card-payments/checkout-token';

const key = checkoutTokenKey({
  CHECKOUT_TOKEN_SECRET: 'a-checkout-secret-of-some-length',
  ENGINE_API_KEYS: [{ secret: 'k' }],
});
const expiresAt = Date.parse('2030-01-01T00:00:00Z');

test('a token opens its own payment until its expiry, and nothing else', () => {
  const token = checkoutToken(key, 'order-1', expiresAt);
  expect(verifyCheckoutToken(key, 'order-1', token, expiresAt - 1)).toEqual({ ok: true, expiresAtMs: expiresAt });
  expect(verifyCheckoutToken(key, 'order-1', token, expiresAt)).toEqual({ ok: false, reason: 'expired' });
  expect(verifyCheckoutToken(key, 'order-2', token, 0)).toEqual({ ok: false, reason: 'invalid' });
  const otherKey = checkoutTokenKey({ ENGINE_API_KEYS: [{ secret: 'another-api-key' }] });
  expect(verifyCheckoutToken(otherKey, 'order-1', token, 0)).toEqual({ ok: false, reason: 'invalid' });
});

test('a token whose expiry was moved, or that is not a token, is refused', () => {
  const [, signature] = checkoutToken(key, 'order-1', expiresAt).split('.');
  expect(verifyCheckoutToken(key, 'order-1', `${expiresAt + 86_400_000}.${signature}`, 0)).toEqual({
    ok: false,
    reason: 'invalid',
  });
  for (const token of ['', 'abc', `${expiresAt}.`, `${expiresAt}.${signature}x`, `-1.${signature}`]) {
    expect(verifyCheckoutToken(key, 'order-1', token, 0)).toEqual({ ok: false, reason: 'malformed' });
  }
});

test('without CHECKOUT_TOKEN_SECRET the key is derived from the first API key, and differs from it', () => {
  const derived = checkoutTokenKey({ ENGINE_API_KEYS: [{ secret: 'dev-api-key' }, { secret: 'other' }] });
  expect(derived.equals(checkoutTokenKey({ ENGINE_API_KEYS: [{ secret: 'dev-api-key' }] }))).toBe(true);
  expect(derived.toString('utf8')).not.toContain('dev-api-key');
});
