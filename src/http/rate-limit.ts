/**
 * A fixed one-minute window per caller (express-rate-limit, in memory: each process counts its own
 * callers). Over the limit the request goes to the server's error handler with `Retry-After` already
 * set, so the 429 leaves in that server's own error shape.
 */
import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Logger } from '../logging/logger';

export interface PerMinuteLimitOptions {
  perMinute: number;
  /** Who is counted: see `hashedKey` and `clientIpKey`. */
  keyOf(req: Request): string;
  refuse(perMinute: number): Error;
  logger: Logger;
}

/** A credential or client id as a counter key: hashed, so the limiter's memory never holds the value itself. */
export function hashedKey(kind: string, value: string): string {
  return `${kind}:${createHash('sha256').update(value).digest('hex')}`;
}

/** The client's address (Express's req.ip: the socket's, or a trusted proxy's report of it), IPv6 grouped by /56 as one client. */
export function clientIpKey(req: Request): string {
  return `ip:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`;
}

export function perMinuteLimit(options: PerMinuteLimitOptions): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: options.perMinute,
    // draft-7 `RateLimit` / `RateLimit-Policy` headers; with any standard headers on, the 429 carries Retry-After.
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator: (req) => options.keyOf(req),
    handler: (_req, _res, next) => next(options.refuse(options.perMinute)),
    logger: {
      error: (error, message) =>
        options.logger.error('rate_limit.error', { error: error instanceof Error ? error : String(error), message }),
      warn: (error, message) =>
        options.logger.warn('rate_limit.warning', { error: error instanceof Error ? error : String(error), message }),
    },
  });
}
