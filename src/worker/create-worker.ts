/**
 * Builds a worker with the engine's data converter. Production passes a prebuilt workflow bundle;
 * tests may pass a bundle built once per file.
 */
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Config } from '../config/env';
import type { Logger } from '../logging/logger';
import { activityInterceptors } from './activity-interceptors';
import { ActivityProblemReporter } from './activity-problem-reporter';
import { operationSinks } from './operation-sinks';
import { TRACING_WORKFLOW_INTERCEPTOR_MODULES, WORKFLOW_INTERCEPTOR_MODULES } from './workflow-source';
import type { Tracing } from '../telemetry/tracing';
import {
  createDataConverter,
  temporalConnectionOptions,
  type TemporalConfig,
  type TemporalEndpointConfig,
} from '../temporal/connection';

export interface EngineWorkerOptions {
  config: TemporalConfig &
    Pick<
      Config,
      | 'WORKER_MAX_CACHED_WORKFLOWS'
      | 'WORKER_MAX_CONCURRENT_WORKFLOW_TASKS'
      | 'ACTIVITY_PROBLEM_AFTER_MS'
      | 'WORKER_DEPLOYMENT_NAME'
      | 'WORKER_BUILD_ID'
    >;
  connection: NativeConnection;
  activities: object;
  /** Prebuilt code, a bundle built in a test, or a path to bundle from; absent: a worker of activities only. */
  workflows?: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'>;
  taskQueue?: string;
  tuning?: Pick<
    WorkerOptions,
    'maxConcurrentActivityTaskExecutions' | 'maxConcurrentWorkflowTaskExecutions' | 'maxCachedWorkflows'
  >;
  /** Where activities log how they ended (with the request id of the API call behind them). */
  logger?: Logger;
  /** Tracing on: workflow and activity spans (a prebuilt bundle must be the traced one: workflowSource). */
  tracing?: Tracing;
}

export function connectWorker(config: TemporalEndpointConfig): Promise<NativeConnection> {
  return NativeConnection.connect(temporalConnectionOptions(config));
}

/**
 * Worker Versioning when the deployment is named (the config has both or neither): each workflow type's behaviour is
 * declared beside its registration (workflows/index.ts); one without says AUTO_UPGRADE,
 * as every long-lived workflow does. Unset: an unversioned worker, as before.
 */
function deploymentOptions(
  config: Pick<Config, 'WORKER_DEPLOYMENT_NAME' | 'WORKER_BUILD_ID'>,
): Pick<WorkerOptions, 'workerDeploymentOptions'> {
  const { WORKER_DEPLOYMENT_NAME: deploymentName, WORKER_BUILD_ID: buildId } = config;
  if (deploymentName === undefined || buildId === undefined) return {};
  return {
    workerDeploymentOptions: {
      useWorkerVersioning: true,
      version: { deploymentName, buildId },
      defaultVersioningBehavior: 'AUTO_UPGRADE',
    },
  };
}

export function createEngineWorker(options: EngineWorkerOptions): Promise<Worker> {
  const { tracing, workflows = {} } = options;
  return Worker.create({
    connection: options.connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: options.taskQueue ?? options.config.TEMPORAL_TASK_QUEUE,
    activities: options.activities,
    ...deploymentOptions(options.config),
    ...workflows,
    // A prebuilt bundle carries the workflow interceptors already (bundled with WORKFLOW_INTERCEPTOR_MODULES, and the tracing ones in its traced twin).
    interceptors: {
      // The activity's span first, so that it is active around the engine's own interceptors (their log lines carry it).
      activity: [
        ...(tracing ? [tracing.activityInterceptors] : []),
        activityInterceptors(options.logger, new ActivityProblemReporter(options.config.ACTIVITY_PROBLEM_AFTER_MS)),
      ],
      ...('workflowsPath' in workflows
        ? {
            workflowModules: [
              ...WORKFLOW_INTERCEPTOR_MODULES,
              ...(tracing ? TRACING_WORKFLOW_INTERCEPTOR_MODULES : []),
            ],
          }
        : {}),
    },
    // Bundling here (no prebuilt bundle): the workflows evaluated once per worker, as WORKFLOW_PRELOAD_MODULES says why.
    ...('workflowsPath' in workflows && workflows.workflowsPath
      ? { bundlerOptions: { preloadModules: [workflows.workflowsPath, ...WORKFLOW_INTERCEPTOR_MODULES] } }
      : {}),
    sinks: { ...operationSinks(), ...tracing?.sinks },
    dataConverter: createDataConverter(options.config),
    // In-flight activities get this long to finish on SIGTERM before they are cancelled.
    shutdownGraceTime: '30 seconds',
    // Set, not derived from the heap limit as the SDK would: a worker with a capped heap keeps a useful cache.
    maxCachedWorkflows: options.config.WORKER_MAX_CACHED_WORKFLOWS,
    maxConcurrentWorkflowTaskExecutions: options.config.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
    ...options.tuning,
  });
}
