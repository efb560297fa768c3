import { timingSafeEqual, createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { ApiError } from './errors';

// Hash first so that the comparison is constant-time whatever the lengths.
const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  const match = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  return match?.[1];
}

export function isValidApiKey(keys: readonly string[], presented: string | undefined): boolean {
  if (!presented) return false;
  const candidate = digest(presented);
  let valid = false;
  for (const key of keys) valid = timingSafeEqual(candidate, digest(key)) || valid;
  return valid;
}

export function requireApiKey(keys: readonly string[]): RequestHandler {
  return (req, _res, next) => {
    if (isValidApiKey(keys, bearerToken(req))) next();
    else next(new ApiError(401, 'UNAUTHORIZED', 'Missing or invalid API key: send Authorization: Bearer <key>'));
  };
}
