/**
 * The engine assembled once, for every process that runs it (`npm run api`, `npm run worker`, the test
 * harness): its stores, the provider's client, and from them the API's routes or the worker's activities. A
 * new store or dependency is added here, and the API and the worker both have it.
 */
import type { Client } from '@temporalio/client';
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
import { workerGroup, type WorkerGroup } from '../worker/worker-group';
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

/**
 * The worker process's workers on this engine's stores, run and stopped as one: the engine's (every workflow
 * and activity, TEMPORAL_TASK_QUEUE) and the merchant webhooks' (the delivery POST alone, on
 * MERCHANT_WEBHOOK_TASK_QUEUE with slots of its own), so that POSTs waiting on a slow merchant never hold the
 * slots provider calls need. `tuning` is the engine worker's; `logger` for what they log.
 */
export async function engineWorkers(
  engine: Engine,
  options: Pick<EngineWorkerOptions, 'connection' | 'workflows' | 'tracing' | 'tuning'> & { logger: Logger },
): Promise<WorkerGroup> {
  const { config } = engine;
  // Eager starts also need the client the activities start workflows with to be on this worker's own connection
  // (src/cli/worker.ts's); a client of its own (the tests' in-process workers) starts them as usual.
  const eagerStart = config.BATCH_EAGER_START && engine.temporal.connection === options.connection;
  const activities = engineActivities(config, { ...engine, logger: options.logger, eagerStart });
  const engineWorker = await createEngineWorker({ ...options, config, activities });
  const webhooks = await createEngineWorker({
    config,
    connection: options.connection,
    logger: options.logger,
    ...(options.tracing ? { tracing: options.tracing } : {}),
    taskQueue: config.MERCHANT_WEBHOOK_TASK_QUEUE,
    // Still registered on the engine's queue too: deliveries started before the webhook-task-queue patch run there.
    activities: { deliverEvent: activities.deliverEvent },
    tuning: { maxConcurrentActivityTaskExecutions: config.MERCHANT_WEBHOOK_MAX_CONCURRENT_DELIVERIES },
  });
  return workerGroup([engineWorker, webhooks]);
}
