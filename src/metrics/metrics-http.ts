/**
 * `GET /metrics` in Prometheus text, on a tiny HTTP server of its own in each process: the engine API's
 * on METRICS_PORT, never on the API's public port (its labels name routes and outcomes: nothing for the
 * internet), the worker's on WORKER_METRICS_PORT. The worker's answer appends the Temporal SDK's runtime
 * metrics, which the SDK's own exporter serves on a loopback port (`WORKER_SDK_METRICS_PORT`), so
 * Prometheus scrapes one address per process and sees both.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { engineRegistry, METRICS_CONTENT_TYPE } from './engine-metrics';

const SDK_SCRAPE_TIMEOUT_MS = 2_000;

/** The SDK exporter's text, or a comment saying why it is missing (the engine's metrics still answer). */
async function sdkMetrics(url: string): Promise<string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(SDK_SCRAPE_TIMEOUT_MS) });
    if (!response.ok) return `# Temporal SDK metrics unavailable: HTTP ${response.status}\n`;
    return await response.text();
  } catch (error) {
    return `# Temporal SDK metrics unavailable: ${error instanceof Error ? error.message : String(error)}\n`;
  }
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Serves `/metrics` on host:port (port 0: any free one); `sdkMetricsUrl` is the SDK exporter to append. */
export async function startMetricsServer(options: {
  host: string;
  port: number;
  sdkMetricsUrl?: string;
}): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('only GET /metrics here\n');
      return;
    }
    void Promise.all([
      engineRegistry.metrics(),
      options.sdkMetricsUrl ? sdkMetrics(options.sdkMetricsUrl) : Promise.resolve(''),
    ]).then(
      ([engine, sdk]) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(`${engine}\n${sdk}`),
      (error: unknown) =>
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
