import type { Router } from 'express';
import type { Client } from '@temporalio/client';
import type { Config } from '../config/env';
import type { Logger } from '../logging/logger';

export interface EngineRouterDependencies {
  config: Config;
  logger: Logger;
  temporal: Client;
}

/** The engine's feature routes, in mount order. */
export function engineRouters(_deps: EngineRouterDependencies): Router[] {
  return [];
}
