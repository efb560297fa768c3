/**
 * Routes the Temporal SDK's own log lines (worker state, core) into our one-JSON-line-per-event logger;
 * with `prometheusBindAddress`, the SDK's runtime metrics (pollers, task slots, latencies) are served
 * there in Prometheus text (the worker's /metrics appends them).
 */
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../logging/logger';

export function installSdkLogging(
  logger: Logger,
  level: LogLevel = 'INFO',
  metrics?: { prometheusBindAddress: string },
): void {
  Runtime.install({
    ...(metrics
      ? { telemetryOptions: { metrics: { prometheus: { bindAddress: metrics.prometheusBindAddress } } } }
      : {}),
    logger: new DefaultLogger(level, (entry) => {
      const fields = { ...(entry.meta ?? {}), sdkLevel: entry.level };
      if (entry.level === 'ERROR') logger.error(entry.message, fields);
      else if (entry.level === 'WARN') logger.warn(entry.message, fields);
      else logger.info(entry.message, fields);
    }),
  });
}
