/**
 * HS256 JWTs with node:crypto only. The signing key is random and kept in the sandbox database, so
 * tokens stay valid across a restart (as with a real provider) and no key is derivable from config.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface TokenClaims {
  sub: string;
  iat: number;
  exp: number;
}

export type TokenVerification =
  { ok: true; claims: TokenClaims } | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' };

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function hmac(key: Buffer, signingInput: string): Buffer {
  return createHmac('sha256', key).update(signingInput, 'ascii').digest();
}

export function signJwt(key: Buffer, claims: TokenClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signingInput = `${HEADER}.${payload}`;
  return `${signingInput}.${hmac(key, signingInput).toString('base64url')}`;
}

function isClaims(value: unknown): value is TokenClaims {
  if (typeof value !== 'object' || value === null) return false;
  const claims = value as Record<string, unknown>;
  return typeof claims.sub === 'string' && Number.isSafeInteger(claims.iat) && Number.isSafeInteger(claims.exp);
}

/** Checks the signature first (so an attacker learns nothing from the claims), then expiry. */
export function verifyJwt(key: Buffer, token: string, nowSeconds: number): TokenVerification {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part)))
    return { ok: false, reason: 'malformed' };
  const [header, payload, signature] = parts as [string, string, string];
  let parsedHeader: unknown;
  let claims: unknown;
  try {
    parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  // Pinning the algorithm refuses "alg: none" and key-confusion tricks.
  if ((parsedHeader as { alg?: unknown } | null)?.alg !== 'HS256') return { ok: false, reason: 'bad-signature' };
  const expected = hmac(key, `${header}.${payload}`);
  const presented = Buffer.from(signature, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected))
    return { ok: false, reason: 'bad-signature' };
  if (!isClaims(claims)) return { ok: false, reason: 'malformed' };
  if (claims.exp <= nowSeconds) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}
