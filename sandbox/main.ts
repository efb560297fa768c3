/** `npm run sandbox`: the provider sandbox on SANDBOX_PORT, state in SANDBOX_DB or DATA_DIR/sandbox.sqlite. */
import '../src/cli/pinned-node';
import { loadConfigOrExit } from '../src/config/env';
import { createLogger } from '../src/logging/logger';
import { createSandbox, sandboxDbPath } from './';
import { stopWhenParentDies } from '../src/cli/parent-watch';
import { onShutdown } from '../src/cli/shutdown';
import { writeShieldPublicKey } from './profiles/public-key-file';
import { shieldKeys } from './products/card-payments/shield/card-token';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ service: 'sandbox' }, config.LOG_LEVEL);
  const dbPath = sandboxDbPath(config);
  const sandbox = createSandbox({ config, dbPath, logger });
  try {
    const { url } = await sandbox.start(config.SANDBOX_PORT);
    logger.info('sandbox.listening', { url, dbPath, profile: config.SANDBOX_PROFILE });
    // A provider without GET /shield/public-key: its key goes where the engine's PAYMENT_SHIELD_PUBLIC_KEY can name it.
    if (!sandbox.ctx.profile.servesPublicKey)
      logger.info('sandbox.shield_public_key_file', {
        file: writeShieldPublicKey(config.DATA_DIR, shieldKeys(sandbox.ctx.db).publicKeyPem),
      });
  } catch (error) {
    logger.error('sandbox.listen_failed', {
      error: error instanceof Error ? error : String(error),
      port: config.SANDBOX_PORT,
    });
    await sandbox.stop().catch(() => undefined);
    process.exit(1);
  }
  onShutdown(
    () => sandbox.stop(),
    (event, fields) => logger.info(event, fields),
  );
  stopWhenParentDies();
}

void main();
