/**
 * The engine API's limit per caller on `/v1`: a valid API key is counted by its hash (every request
 * made with it, from anywhere); anything else by the client's address, so that guessing keys is
 * limited too. Provider callbacks, health and the codec are not counted here: a callback burst after
 * an outage must never be refused, and health probes are not callers.
 */
import type { RequestHandler } from 'express';
import type { Logger } from '../logging/logger';
import { clientIpKey, hashedKey, perMinuteLimit } from '../http/rate-limit';
import { bearerToken, matchesSecret } from '../http/bearer-auth';
import { rateLimitedRequests } from '../metrics/engine-metrics';
import { ApiError } from './errors';

export function apiRateLimit(options: { apiKeys: readonly string[]; perMinute: number; logger: Logger }): RequestHandler {
  return perMinuteLimit({
    perMinute: options.perMinute,
    keyOf: (req) => {
      const presented = bearerToken(req);
      return presented !== undefined && matchesSecret(options.apiKeys, presented) ? hashedKey('api-key', presented) : clientIpKey(req);
    },
    refuse: (limit) => {
      rateLimitedRequests.inc();
      return new ApiError(429, 'RATE_LIMITED', `More than ${limit} requests in a minute: retry after the Retry-After header's seconds`);
    },
    logger: options.logger,
  });
}
