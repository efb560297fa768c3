/** Bearer credentials as both servers check them: the engine's API keys and the sandbox's admin token. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';

// Hash first so that the comparison is constant-time whatever the lengths.
const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  const match = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  return match?.[1];
}

/** The holder whose secret `presented` is, comparing with every one in constant time (no early exit). */
export function holderOfSecret<T>(
  holders: readonly T[],
  secretOf: (holder: T) => string,
  presented: string | undefined,
): T | undefined {
  if (!presented) return undefined;
  const candidate = digest(presented);
  let found: T | undefined;
  for (const holder of holders) if (timingSafeEqual(candidate, digest(secretOf(holder)))) found ??= holder;
  return found;
}

/** Whether `presented` equals one of `secrets`, comparing every one in constant time. */
export function matchesSecret(secrets: readonly string[], presented: string | undefined): boolean {
  return holderOfSecret(secrets, (secret) => secret, presented) !== undefined;
}
