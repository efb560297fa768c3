/**
 * The engine's HTTP surface. Routes are mounted from their own modules; this file only wires them,
 * in an order that matters: callbacks need the raw body (signatures), so they mount before any JSON parser.
 */
import express, { type Express, type Router } from 'express';
import type { PayloadCodec } from '@temporalio/common';
import type { Config } from '../config/env';
import type { Logger } from '../logging/logger';
import { codecRoutes } from './codec-routes';
import { ApiError, errorHandler } from './errors';
import { healthRoutes, type ReadinessCheck } from './health-routes';
import { engineOpenApi } from './engine-openapi';

export interface AppDependencies {
  config: Pick<Config, 'ENGINE_API_KEYS' | 'TEMPORAL_UI_PORT' | 'NODE_ENV'>;
  logger: Logger;
  codec: PayloadCodec;
  readiness: Record<string, ReadinessCheck>;
  /** Feature routers (payouts, callbacks, ...), mounted in order after health and codec. */
  routers?: Router[];
}

export function localUiOrigins(uiPort: number): string[] {
  return [`http://localhost:${uiPort}`, `http://127.0.0.1:${uiPort}`];
}

export function createApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(healthRoutes(deps.readiness));
  const openApi = engineOpenApi();
  app.get('/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  app.use(
    codecRoutes({
      codec: deps.codec,
      apiKeys: deps.config.ENGINE_API_KEYS,
      uiOrigins: localUiOrigins(deps.config.TEMPORAL_UI_PORT),
      trustLocalUi: deps.config.NODE_ENV !== 'production',
    }),
  );
  for (const router of deps.routers ?? []) app.use(router);
  app.use((req, _res, next) => next(new ApiError(404, 'NOT_FOUND', `No route for ${req.method} ${req.path}`)));
  app.use(errorHandler((error) => deps.logger.error('api.unexpected_error', { error })));
  return app;
}
