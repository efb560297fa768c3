/** The benchmark's yardstick worker: the bare workflow on its own task queue, with the engine's worker settings. */
import path from 'node:path';
import { createBareActivities } from '../../activities/bare-activities';
import { loadConfigOrExit } from '../config/env';
import { createLogger } from '../logging/logger';
import { installSdkLogging } from '../temporal/sdk-logging';
import { connectWorker, createEngineWorker } from '../worker/create-worker';
import { PROJECT_ROOT } from '../temporal/binaries';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ service: 'bench-worker' }, config.LOG_LEVEL);
  installSdkLogging(logger, 'WARN');
  const connection = await connectWorker(config);
  const worker = await createEngineWorker({
    config,
    connection,
    activities: createBareActivities(),
    workflows: { workflowsPath: path.join(PROJECT_ROOT, 'workflows', 'bench', 'bare-workflow.ts') },
  });
  logger.info('worker.started', { taskQueue: config.TEMPORAL_TASK_QUEUE });
  await worker.run();
  await connection.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
