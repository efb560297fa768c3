import path from 'node:path';
import type { Config } from '../config/env';
import type { DevServerOptions } from '../temporal/dev-server';

/** The local dev server as `npm start` and `npm run temporal` run it. */
export function devServerOptionsFor(config: Config, binary: string): DevServerOptions {
  const [host, port] = config.TEMPORAL_ADDRESS.split(':');
  return {
    binary,
    ip: host,
    port: Number(port),
    uiPort: config.TEMPORAL_UI_PORT,
    dbFile: path.join(config.DATA_DIR, 'temporal.sqlite'),
    namespace: config.TEMPORAL_NAMESPACE,
    codecEndpoint: `${config.ENGINE_PUBLIC_URL}/codec`,
    startupTimeoutMs: 120_000,
  };
}
