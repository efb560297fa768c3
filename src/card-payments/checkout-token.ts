/**
 * The checkout link's token: good for one purpose (paying this one card payment at its checkout) until
 * the payment's expiry, HMAC-SHA256 signed, compared in constant time. It carries no data beyond the
 * expiry: the payment it opens is in the URL's path and in the signed text.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PURPOSE = 'card-checkout.v1';
const TOKEN_PATTERN = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/** The signing key: CHECKOUT_TOKEN_SECRET (required in production), or outside production one derived from the first engine API key (rotating that key voids open checkout links). */
export function checkoutTokenKey(config: {
  CHECKOUT_TOKEN_SECRET?: string | undefined;
  ENGINE_API_KEYS: readonly { secret: string }[];
}): Buffer {
  if (config.CHECKOUT_TOKEN_SECRET) return Buffer.from(config.CHECKOUT_TOKEN_SECRET, 'utf8');
  const apiKey = config.ENGINE_API_KEYS[0]?.secret;
  if (!apiKey) throw new Error('no secret to sign checkout tokens with: set CHECKOUT_TOKEN_SECRET');
  return createHmac('sha256', apiKey).update(`${PURPOSE} key`).digest();
}

function signature(key: Buffer, externalId: string, expiresAtMs: number): Buffer {
  return createHmac('sha256', key).update(`${PURPOSE}\n${externalId}\n${expiresAtMs}`).digest();
}

export function checkoutToken(key: Buffer, externalId: string, expiresAtMs: number): string {
  return `${expiresAtMs}.${signature(key, externalId, expiresAtMs).toString('base64url')}`;
}

export type TokenCheck = { ok: true; expiresAtMs: number } | { ok: false; reason: 'malformed' | 'invalid' | 'expired' };

export function verifyCheckoutToken(key: Buffer, externalId: string, token: string, nowMs: number): TokenCheck {
  const match = TOKEN_PATTERN.exec(token);
  if (!match?.[1] || !match[2]) return { ok: false, reason: 'malformed' };
  const expiresAtMs = Number(match[1]);
  const presented = Buffer.from(match[2], 'base64url');
  const expected = signature(key, externalId, expiresAtMs);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected))
    return { ok: false, reason: 'invalid' };
  if (nowMs >= expiresAtMs) return { ok: false, reason: 'expired' };
  return { ok: true, expiresAtMs };
}
