/** `npm run api`: the engine's HTTP API on ENGINE_HOST:ENGINE_PORT (loopback unless told otherwise), its metrics on METRICS_HOST:METRICS_PORT. */
import './pinned-node';
import type { AddressInfo } from 'node:net';
import { resolveCodecToken } from '../api/codec-token';
import { deprecatedVariables, loadConfigOrExit } from '../config/env';
import { engineApp, openEngine } from '../engine/engine';
import { createLogger } from '../logging/logger';
import { startMetricsServer } from '../metrics/metrics-http';
import { watchReviewQueue } from '../metrics/review-queue';
import { checkTemporal, lazyClient } from '../temporal/connection';
import { checkWorkerPolling } from '../temporal/task-queue-pollers';
import { warmUpApi } from '../api/warm-up';
import { stopWhenParentDies } from './parent-watch';
import { onShutdown } from './shutdown';
import { startTracing } from '../telemetry/tracing';

async function checkReachable(url: string): Promise<void> {
  // Any HTTP answer proves the provider is reachable; only a network error or timeout does not.
  await fetch(url, { method: 'GET', signal: AbortSignal.timeout(2_000) });
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ service: 'engine-api' }, config.LOG_LEVEL);
  for (const deprecated of deprecatedVariables()) logger.warn('config.deprecated_variable', deprecated);
  const tracing = startTracing('payout-api');
  const temporal = lazyClient(config, tracing);
  const engine = await openEngine(config, logger, temporal.client);
  const codecToken = resolveCodecToken(config);
  const warming = performance.now();
  const warmUp = warmUpApi((error) => logger.warn('api.warm_up_failed', { error }));
  void warmUp.done.then(() => logger.info('api.warmed_up', { ms: Math.round(performance.now() - warming) }));
  const app = engineApp(engine, {
    ...(codecToken ? { codecToken } : {}),
    readiness: {
      temporal: () => checkTemporal(temporal, config.TEMPORAL_NAMESPACE),
      paymentApi: () => checkReachable(config.PAYMENT_API_BASE_URL),
      warmUp: warmUp.check,
      worker: () => checkWorkerPolling(temporal, config.TEMPORAL_NAMESPACE, config.TEMPORAL_TASK_QUEUE),
    },
    traceRequests: tracing !== undefined,
  });
  const stopReviewCount = watchReviewQueue(temporal.client, config.METRICS_REVIEW_QUEUE_INTERVAL_MS, logger);
  const metrics = await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT });
  const server = app.listen(config.ENGINE_PORT, config.ENGINE_HOST, () => {
    // What the socket really bound, not what was asked: a host name may resolve to another interface.
    const { address, family, port } = server.address() as AddressInfo;
    logger.info('api.listening', { address, family, port, metricsPort: metrics.port, tracing: tracing !== undefined });
  });
  server.on('error', (error) => {
    logger.error('api.listen_failed', { error, host: config.ENGINE_HOST, port: config.ENGINE_PORT });
    process.exit(1);
  });
  onShutdown(
    async () => {
      stopReviewCount();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await metrics.close();
      await temporal.close();
      await engine.close();
      await tracing?.shutdown();
    },
    (event, fields) => logger.info(event, fields),
  );
  stopWhenParentDies();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
