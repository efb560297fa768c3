/**
 * `npm run worker`: registers the workflows and activities on the task queue, and merchant webhook deliveries
 * on theirs (engineWorkers). The SDK stops both on SIGINT/SIGTERM: polling ends, in-flight activities get the
 * shutdown grace time to finish.
 */
import './pinned-node';
import { deprecatedVariables, loadConfigOrExit } from '../config/env';
import { engineWorkers, openEngine } from '../engine/engine';
import { ensureMedSyncSchedule } from '../lifecycles/med-sync-schedule';
import { createLogger } from '../logging/logger';
import { startMetricsServer } from '../metrics/metrics-http';
import { clientOnWorkerConnection } from '../temporal/connection';
import { installSdkLogging } from '../temporal/sdk-logging';
import { connectWorker } from '../worker/create-worker';
import { workflowSource } from '../worker/workflow-source';
import { warmUpWorker } from '../worker/warm-up';
import { stopWhenParentDies } from './parent-watch';
import { startTracing } from '../telemetry/tracing';

async function main(): Promise<void> {
  const config = loadConfigOrExit('worker');
  const logger = createLogger({ service: 'worker' }, config.LOG_LEVEL);
  for (const deprecated of deprecatedVariables()) logger.warn('config.deprecated_variable', deprecated);
  const tracing = startTracing('payout-worker');
  const sdkMetrics = `127.0.0.1:${config.WORKER_SDK_METRICS_PORT}`;
  installSdkLogging(logger.child({ source: 'temporal-sdk' }), config.LOG_LEVEL === 'debug' ? 'DEBUG' : 'INFO', {
    prometheusBindAddress: sdkMetrics,
  });
  const metrics = await startMetricsServer({
    host: config.WORKER_METRICS_HOST,
    port: config.WORKER_METRICS_PORT,
    sdkMetricsUrl: `http://${sdkMetrics}/metrics`,
  });
  const connection = await connectWorker(config);
  const temporal = clientOnWorkerConnection(connection, config, tracing);
  const engine = await openEngine(config, logger, temporal.client);
  const workers = await engineWorkers(engine, {
    connection,
    workflows: workflowSource(config.WORKFLOW_BUNDLE_PATH, tracing !== undefined),
    logger,
    ...(tracing ? { tracing } : {}),
  });
  await ensureMedSyncSchedule(temporal.client, config);
  // The SDK's own SIGTERM handling stops the worker; the watch sends it one if the stack launcher dies.
  stopWhenParentDies();
  // Before the first poll: /readyz counts a worker once it polls (src/temporal/task-queue-pollers.ts).
  const warming = performance.now();
  const messageTypes = await warmUpWorker();
  logger.info('worker.warmed_up', { messageTypes, ms: Math.round(performance.now() - warming) });
  logger.info('worker.started', {
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    webhookTaskQueue: config.MERCHANT_WEBHOOK_TASK_QUEUE,
    namespace: config.TEMPORAL_NAMESPACE,
    medSyncSchedule: config.MED_SYNC_SCHEDULE_ID,
    metricsPort: metrics.port,
    tracing: tracing !== undefined,
    ...(config.WORKER_DEPLOYMENT_NAME
      ? { deploymentName: config.WORKER_DEPLOYMENT_NAME, buildId: config.WORKER_BUILD_ID }
      : {}),
  });
  await workers.run();
  await connection.close();
  await temporal.close();
  await engine.close();
  await metrics.close();
  await tracing?.shutdown();
  logger.info('worker.stopped');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
