/** `npm run temporal`: the Temporal dev server with its Web UI, state kept under DATA_DIR. */
import path from 'node:path';
import { loadConfigOrExit } from '../../src/config/env';
import { createLogger } from '../../src/logging/logger';
import { temporalCliPath } from './binaries';
import { startDevServer } from './dev-server';
import { onShutdown } from '../../src/cli/shutdown';
import { devServerOptionsFor } from '../stack/stack-options';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ service: 'temporal-dev-server' }, config.LOG_LEVEL);
  const server = await startDevServer(devServerOptionsFor(config, temporalCliPath()));
  logger.info('temporal.ready', {
    address: server.address,
    ui: server.uiUrl,
    db: path.join(config.DATA_DIR, 'temporal.sqlite'),
  });
  onShutdown(
    () => server.stop(),
    (event, fields) => logger.info(event, fields),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
