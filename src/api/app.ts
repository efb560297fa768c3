/**
 * The engine's HTTP surface. Routes are mounted from their own modules; this file only wires them,
 * in an order that matters: callbacks need the raw body (signatures), so they mount before any JSON parser;
 * the rate limits come before the routes they cover (/v1 per API key; callbacks, checkout and codec per
 * client address); /v1's API key and each operation's scope (auth.ts) before any body is read; 405 and 404
 * come after every route. Request logs and the request id come first, so every later line carries the id.
 */
import express, { type Express, type Request, type Router } from 'express';
import type { PayloadCodec } from '@temporalio/common';
import type { Config } from '../config/env';
import type { Logger } from '../logging/logger';
import { requireApiKey, scopeChecks, scopedRoutes, undeclaredRoutes } from './auth';
import { codecRoutes } from './codec-routes';
import { ApiError, errorHandler } from './errors';
import { healthRoutes, type ReadinessCheck } from './health-routes';
import { engineOpenApi, engineOperations } from './openapi-document';
import { callbackFieldsOf, type CallbackFieldSettings } from './callbacks/callback-routes';
import { refuseOtherMethods } from './http-refusals';
import { referencePageRoutes } from './reference-page';
import { addressRateLimit, apiRateLimit } from './rate-limit';
import { requestLogging } from './request-logging';
import { trackAllowedMethods } from '../http/allowed-methods';
import { httpServerSpans } from '../telemetry/http-server-span';
import { bearerToken, holderOfSecret } from '../http/bearer-auth';
import type { ApiKey } from '../config/api-keys';

export interface AppDependencies {
  config: Pick<
    Config,
    | 'ENGINE_API_KEYS'
    | 'CODEC_CORS_ORIGINS'
    | 'ENGINE_RATE_LIMIT_PER_MINUTE'
    | 'CALLBACK_RATE_LIMIT_PER_MINUTE'
    | 'CHECKOUT_RATE_LIMIT_PER_MINUTE'
    | 'CODEC_RATE_LIMIT_PER_MINUTE'
    | 'TRUST_PROXY'
    | 'PROVIDER_CALLBACK_SIGNATURES'
  > &
    CallbackFieldSettings;
  logger: Logger;
  codec: PayloadCodec;
  /** The Temporal UI's credential for the codec endpoint (codec-token.ts); unset: API keys only. */
  codecToken?: string;
  readiness: Record<string, ReadinessCheck>;
  /** Feature routers (payouts, callbacks, ...), mounted in order after health and codec. */
  routers?: Router[];
  /** A server span per request (tracing on: src/telemetry/tracing.ts). */
  traceRequests?: boolean;
}

/** A merchant's request to its API (/v1, whatever the case, as Express routes it) with a valid key: the one caller whose trace the engine's continues. */
function merchantRequest(apiKeys: readonly ApiKey[]): (req: Request) => boolean {
  return (req) =>
    /^\/v1(\/|$)/i.test(req.path) && holderOfSecret(apiKeys, (key) => key.secret, bearerToken(req)) !== undefined;
}

export function createApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  // The client's address is the socket's unless a known load balancer reports it (TRUST_PROXY).
  app.set('trust proxy', deps.config.TRUST_PROXY ?? false);
  if (deps.traceRequests)
    app.use(httpServerSpans({ continuesCallerTrace: merchantRequest(deps.config.ENGINE_API_KEYS) }));
  app.use(requestLogging(deps.logger));
  app.use(healthRoutes(deps.readiness, deps.logger));
  const openApi = engineOpenApi({
    policy: deps.config.PROVIDER_CALLBACK_SIGNATURES,
    fields: callbackFieldsOf(deps.config),
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  app.use(referencePageRoutes());
  const { logger } = deps;
  app.use(
    '/callbacks',
    addressRateLimit({ scope: 'callbacks', perMinute: deps.config.CALLBACK_RATE_LIMIT_PER_MINUTE, logger }),
  );
  app.use(
    '/checkout',
    addressRateLimit({ scope: 'checkout', perMinute: deps.config.CHECKOUT_RATE_LIMIT_PER_MINUTE, logger }),
  );
  app.use('/codec', addressRateLimit({ scope: 'codec', perMinute: deps.config.CODEC_RATE_LIMIT_PER_MINUTE, logger }));
  app.use(
    codecRoutes({
      codec: deps.codec,
      apiKeys: deps.config.ENGINE_API_KEYS,
      ...(deps.codecToken === undefined ? {} : { codecToken: deps.codecToken }),
      corsOrigins: deps.config.CODEC_CORS_ORIGINS,
    }),
  );
  app.use(
    '/v1',
    apiRateLimit({
      apiKeys: deps.config.ENGINE_API_KEYS,
      perMinute: deps.config.ENGINE_RATE_LIMIT_PER_MINUTE,
      logger: deps.logger,
    }),
  );
  app.use('/v1', requireApiKey(deps.config.ENGINE_API_KEYS));
  const scoped = scopedRoutes(engineOperations());
  // A route no operation declares would be open to every key: refused here, before the API listens.
  const undeclared = undeclaredRoutes(deps.routers ?? [], scoped);
  if (undeclared.length > 0)
    throw new Error(
      `Routes under /v1 without an operation naming their scope (src/api/<flow>/openapi.ts): ${undeclared.join(', ')}`,
    );
  app.use(scopeChecks(scoped));
  for (const router of deps.routers ?? []) app.use(router);
  trackAllowedMethods(app.router);
  app.use(refuseOtherMethods);
  app.use((req, _res, next) => next(new ApiError(404, 'NOT_FOUND', `No route for ${req.method} ${req.path}`)));
  app.use(errorHandler((error) => deps.logger.error('api.unexpected_error', { error })));
  return app;
}
