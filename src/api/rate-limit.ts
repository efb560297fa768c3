/**
 * The engine API's limits, each a fixed minute per caller, wherever outsiders arrive:
 * - `/v1`: a valid API key is counted by its hash (every request made with it, from anywhere); anything
 *   else by the client's address, so that guessing keys is limited too;
 * - `/callbacks`, `/checkout` and `/codec`: by the client's address (the provider, a buyer's browser,
 *   the Temporal UI). A callback refused with 429 is not lost: the provider retries it, as after any
 *   answer that is not 2xx.
 * The client's address is the socket's, or with TRUST_PROXY the one a trusted load balancer reports.
 * Liveness (/healthz) is not counted; readiness is, by address (health-routes.ts).
 */
import type { RequestHandler } from 'express';
import type { Logger } from '../logging/logger';
import { clientIpKey, hashedKey, perMinuteLimit } from '../http/rate-limit';
import type { ApiKey } from '../config/api-keys';
import { bearerToken, holderOfSecret } from '../http/bearer-auth';
import { rateLimitedRequests } from '../metrics/engine-metrics';
import { ApiError } from './errors';

export type LimitScope = 'api' | 'callbacks' | 'checkout' | 'codec' | 'readiness';

function refuse(scope: LimitScope) {
  return (limit: number): ApiError => {
    rateLimitedRequests.inc({ scope });
    return new ApiError(
      429,
      'RATE_LIMITED',
      `More than ${limit} requests in a minute: retry after the Retry-After header's seconds`,
    );
  };
}

export function apiRateLimit(options: {
  apiKeys: readonly ApiKey[];
  perMinute: number;
  logger: Logger;
}): RequestHandler {
  return perMinuteLimit({
    perMinute: options.perMinute,
    keyOf: (req) => {
      const key = holderOfSecret(options.apiKeys, (candidate) => candidate.secret, bearerToken(req));
      return key ? hashedKey('api-key', key.secret) : clientIpKey(req);
    },
    refuse: refuse('api'),
    logger: options.logger,
  });
}

/** A limit per client address, for the routes reached without an API key. */
export function addressRateLimit(options: {
  scope: Exclude<LimitScope, 'api'>;
  perMinute: number;
  logger: Logger;
}): RequestHandler {
  return perMinuteLimit({
    perMinute: options.perMinute,
    keyOf: clientIpKey,
    refuse: refuse(options.scope),
    logger: options.logger,
  });
}
