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

/** Whether `presented` equals one of `secrets`, comparing every one in constant time. */
export function matchesSecret(secrets: readonly string[], presented: string | undefined): boolean {
  if (!presented) return false;
  const candidate = digest(presented);
  let valid = false;
  for (const secret of secrets) valid = timingSafeEqual(candidate, digest(secret)) || valid;
  return valid;
}
