/**
 * Builds a worker with the engine's data converter. Production passes a prebuilt workflow bundle;
 * tests may pass a bundle built once per file.
 */
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Config } from '../config/env';
import { createDataConverter, temporalConnectionOptions, type TemporalConfig, type TemporalEndpointConfig } from '../temporal/connection';

export interface EngineWorkerOptions {
  config: TemporalConfig & Pick<Config, 'WORKER_MAX_CACHED_WORKFLOWS'>;
  connection: NativeConnection;
  activities: object;
  /** Prebuilt code, a bundle built in a test, or a path to bundle from. */
  workflows: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'>;
  taskQueue?: string;
  tuning?: Pick<WorkerOptions, 'maxConcurrentActivityTaskExecutions' | 'maxConcurrentWorkflowTaskExecutions' | 'maxCachedWorkflows'>;
}

export function connectWorker(config: TemporalEndpointConfig): Promise<NativeConnection> {
  return NativeConnection.connect(temporalConnectionOptions(config));
}

export function createEngineWorker(options: EngineWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: options.taskQueue ?? options.config.TEMPORAL_TASK_QUEUE,
    activities: options.activities,
    ...options.workflows,
    dataConverter: createDataConverter(options.config),
    // In-flight activities get this long to finish on SIGTERM before they are cancelled.
    shutdownGraceTime: '30 seconds',
    // Set, not derived from the heap limit as the SDK would: a worker with a capped heap keeps a useful cache.
    maxCachedWorkflows: options.config.WORKER_MAX_CACHED_WORKFLOWS,
    ...options.tuning,
  });
}
