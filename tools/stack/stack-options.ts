import path from 'node:path';
import { codecUiEndpoint, resolveCodecToken } from '../../src/api/codec-token';
import type { Config } from '../../src/config/env';
import type { DevServerOptions } from '../temporal/dev-server';

/** The local dev server as `npm start` and `npm run temporal` run it; its UI decodes through the engine with the codec token. */
export function devServerOptionsFor(config: Config, binary: string): DevServerOptions {
  const [host, port] = config.TEMPORAL_ADDRESS.split(':');
  const codecToken = resolveCodecToken(config);
  return {
    binary,
    ip: host,
    port: Number(port),
    uiPort: config.TEMPORAL_UI_PORT,
    ...(config.TEMPORAL_METRICS_PORT === undefined ? {} : { metricsPort: config.TEMPORAL_METRICS_PORT }),
    dbFile: path.join(config.DATA_DIR, 'temporal.sqlite'),
    namespace: config.TEMPORAL_NAMESPACE,
    ...(codecToken === undefined ? {} : { codecEndpoint: codecUiEndpoint(config.ENGINE_PUBLIC_URL, codecToken) }),
    startupTimeoutMs: 120_000,
  };
}

/** Where a process on this machine reaches the engine API, whatever interface it binds. */
export function engineLocalUrl(config: Pick<Config, 'ENGINE_HOST' | 'ENGINE_PORT'>): string {
  const host =
    config.ENGINE_HOST === '0.0.0.0' ? '127.0.0.1' : config.ENGINE_HOST === '::' ? '::1' : config.ENGINE_HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.ENGINE_PORT}`;
}
