/**
 * The engine assembled once, for every process that runs it (`npm run api`, `npm run worker`, the test
 * harness): its stores, the provider's client, and from them the API's routes or the worker's activities. A
 * new store or dependency is added here, and the API and the worker both have it.
 */
import type { Client } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import type { Express } from 'express';
import { createApp, type AppDependencies } from '../api/app';
import { openUnmatchedCallbackStore, type UnmatchedCallbackStore } from '../api/callbacks/unmatched-callbacks';
import type { BatchStore } from '../batches/batch-store';
import { openBatchStore } from '../batches/open-batch-store';
import type { Config } from '../config/env';
import type { IntentStore } from '../intents/intent-store';
import { openIntentStore } from '../intents/open-intent-store';
import type { Logger } from '../logging/logger';
import type { WebhookEndpointStore } from '../merchant-events/endpoint-store';
import { openWebhookEndpointStore } from '../merchant-events/open-endpoint-store';
import type { PaymentApiClient } from '../payment-api/client';
import { openReadModel } from '../read-model/open-read-model';
import type { ReadModel } from '../read-model/read-model';
import { createPayloadCodec } from '../temporal/connection';
import { createEngineWorker, type EngineWorkerOptions } from '../worker/create-worker';
import { engineActivities } from './activities';
import { paymentApiClient } from './payment-api-client';
import { engineRouters } from './routers';

export interface EngineStores {
  batchStore: BatchStore;
  intents: IntentStore;
  readModel: ReadModel;
  endpoints: WebhookEndpointStore;
  unmatched: UnmatchedCallbackStore;
}

export interface Engine extends EngineStores {
  config: Config;
  logger: Logger;
  temporal: Client;
  api: PaymentApiClient;
  /** Closes the stores (the Temporal client is the caller's). */
  close(): Promise<void>;
}

/** Opens the engine's stores as configured (SQLite under DATA_DIR, or DATABASE_URL) beside a Temporal client. */
export async function openEngine(config: Config, logger: Logger, temporal: Client): Promise<Engine> {
  const stores: EngineStores = {
    batchStore: await openBatchStore(config),
    intents: await openIntentStore(config),
    readModel: await openReadModel(config),
    endpoints: await openWebhookEndpointStore(config),
    unmatched: await openUnmatchedCallbackStore(config),
  };
  return {
    ...stores,
    config,
    logger,
    temporal,
    api: paymentApiClient(config),
    async close() {
      const { batchStore, intents, readModel, endpoints, unmatched } = stores;
      for (const store of [batchStore, intents, readModel, endpoints, unmatched]) await store.close();
    },
  };
}

/** The engine's HTTP API: health, codec and every feature route. */
export function engineApp(
  engine: Engine,
  options: Pick<AppDependencies, 'codecToken' | 'readiness' | 'traceRequests'>,
): Express {
  const { config, logger } = engine;
  return createApp({
    config,
    logger,
    codec: createPayloadCodec(config),
    ...options,
    routers: engineRouters(engine),
  });
}

/** A worker running the engine's workflows and its activities on this engine's stores; `logger` for what the worker logs. */
export function engineWorker(
  engine: Engine,
  options: Pick<EngineWorkerOptions, 'connection' | 'workflows' | 'tracing'> & { logger: Logger },
): Promise<Worker> {
  return createEngineWorker({
    ...options,
    config: engine.config,
    activities: engineActivities(engine.config, { ...engine, logger: options.logger }),
  });
}
