/**
 * `npm start`: the whole stack on its embedded defaults. Starts the Temporal dev server, then the
 * sandbox, the worker and the engine API as child processes in their own process groups, prints the
 * URLs, and on Ctrl-C (or SIGTERM) stops them in reverse order, so no process and no port is left.
 * The npm script execs node on this file: npm passes a SIGINT or SIGTERM sent to its own pid on to its
 * child only, and a shell (`sh -c`) or tsx's CLI in between would not pass it on further.
 */
import '../../src/cli/pinned-node';
import type { ChildProcess } from 'node:child_process';
import { loadConfigOrExit, type Config } from '../../src/config/env';
import { createLogger } from '../../src/logging/logger';
import { sandboxProviderEngineEnv } from './sandbox-provider-env';
import { seedProfileEngineEnv } from './seed-profile-env';
import { temporalCliPath } from '../temporal/binaries';
import { startDevServer, type DevServerHandle } from '../temporal/dev-server';
import { spawnService, stopChild, waitHealthy } from './child-services';
import { ensureReferencePage } from '../docs/reference-page';
import { devServerOptionsFor, engineLocalUrl } from './stack-options';

const SERVICES = ['sandbox', 'worker', 'api'] as const;
const READY_WAIT_MS = 120_000;
type Service = (typeof SERVICES)[number];

interface Running {
  name: Service;
  child: ChildProcess;
}

function banner(config: Config, temporal: DevServerHandle): string {
  const sandboxUrl = `http://127.0.0.1:${config.SANDBOX_PORT}`;
  const provider =
    config.PAYMENT_API_BASE_URL === sandboxUrl
      ? 'the sandbox above'
      : 'PAYMENT_API_BASE_URL: not the sandbox started here';
  return [
    '',
    'Payout engine stack is up:',
    `  Engine API       ${engineLocalUrl(config)}   (Authorization: Bearer ${config.ENGINE_API_KEYS[0]?.secret ?? ''})`,
    `  Sandbox (PSP)    ${sandboxUrl}   (OpenAPI: /openapi.json, admin: Authorization: Bearer ${config.SANDBOX_ADMIN_TOKEN})`,
    `  Provider         ${config.PAYMENT_API_BASE_URL}   (what the engine calls: ${provider})`,
    `  Temporal         ${temporal.address}   namespace ${config.TEMPORAL_NAMESPACE}, task queue ${config.TEMPORAL_TASK_QUEUE}`,
    `  Temporal Web UI  ${temporal.uiUrl ?? '(headless)'}`,
    `  Data             ${config.DATA_DIR}`,
    'Press Ctrl-C to stop everything.',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ service: 'stack' }, config.LOG_LEVEL);
  // GET /docs serves the reference page built from the document (a few seconds, only when absent or stale).
  ensureReferencePage();
  const temporal = await startDevServer({ ...devServerOptionsFor(config, temporalCliPath()), detached: true });
  const running: Running[] = [];
  let stopping = false;

  const stopAll = async (code: number): Promise<never> => {
    stopping = true;
    for (const { child } of [...running].reverse()) await stopChild(child, 35_000);
    await temporal.stop();
    logger.info('stack.stopped');
    process.exit(code);
  };
  const shutdownOnSignal = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    logger.info('stack.stopping', { signal });
    void stopAll(0);
  };
  process.on('SIGINT', shutdownOnSignal);
  process.on('SIGTERM', shutdownOnSignal);

  // A merchant trying webhooks locally runs the receiver on this machine: loopback endpoints are allowed unless said otherwise.
  const env = config.NODE_ENV === 'production' ? process.env : { WEBHOOK_ALLOW_LOOPBACK: 'true', ...process.env };
  try {
    for (const name of SERVICES) {
      // Every child sees the URLs this process derived (and printed), so the engine calls the sandbox started here.
      const child = spawnService(name, {
        env: {
          ...env,
          ...seedProfileEngineEnv(config, process.env),
          ...sandboxProviderEngineEnv(config, process.env),
          PAYMENT_API_BASE_URL: config.PAYMENT_API_BASE_URL,
          ENGINE_PUBLIC_URL: config.ENGINE_PUBLIC_URL,
        },
      });
      running.push({ name, child });
      child.once('exit', (code, signal) => {
        if (stopping) return;
        logger.error('stack.child_exited', { service: name, code, signal });
        void stopAll(1);
      });
    }
    await waitHealthy(`http://127.0.0.1:${config.SANDBOX_PORT}/healthz`, running[0]!.child, 'sandbox');
    await waitHealthy(`${engineLocalUrl(config)}/healthz`, running[2]!.child, 'engine API');
  } catch (error) {
    logger.error('stack.start_failed', { error });
    await stopAll(1);
  }
  // The banner once /readyz says ready (the worker and the API warmed up): the first request is then not a cold one.
  // A provider that does not answer leaves it not ready: the banner follows anyway, with the reason in the API's log.
  await waitHealthy(`${engineLocalUrl(config)}/readyz`, running[2]!.child, 'engine API', {
    timeoutMs: READY_WAIT_MS,
  }).catch((error: unknown) => logger.warn('stack.not_ready', { error }));
  process.stdout.write(banner(config, temporal));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
