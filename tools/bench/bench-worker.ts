/** The benchmark's yardstick worker: the bare workflow on its own task queue, with the engine's worker settings. */
import path from 'node:path';
import { createBareActivities } from './bare-activities';
import { loadConfigOrExit } from '../../src/config/env';
import { createLogger } from '../../src/logging/logger';
import { installSdkLogging } from '../../src/temporal/sdk-logging';
import { connectWorker, createEngineWorker } from '../../src/worker/create-worker';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ service: 'bench-worker' }, config.LOG_LEVEL);
  installSdkLogging(logger, 'WARN');
  const connection = await connectWorker(config);
  const worker = await createEngineWorker({
    config,
    connection,
    activities: createBareActivities(),
    workflows: { workflowsPath: path.join(__dirname, 'bare-workflow.ts') },
  });
  logger.info('worker.started', { taskQueue: config.TEMPORAL_TASK_QUEUE });
  await worker.run();
  await connection.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
