/**
 * The benchmark's yardstick worker: the bare payout (bare-payout-workflow.ts) on its own task queue, with
 * the engine's worker settings (createEngineWorker), telling the stand-in provider on BENCH_SIGNALLER_PORT.
 */
import path from 'node:path';
import { z } from 'zod';
import { createBareActivities } from './bare-payout-activities';
import { stopWhenParentDies } from '../../src/cli/parent-watch';
import { loadConfigOrExit } from '../../src/config/env';
import { createLogger } from '../../src/logging/logger';
import { installSdkLogging } from '../../src/temporal/sdk-logging';
import { connectWorker, createEngineWorker } from '../../src/worker/create-worker';

const benchWorkerEnvSchema = z.object({ BENCH_SIGNALLER_PORT: z.coerce.number().int().min(1).max(65_535) });

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const { BENCH_SIGNALLER_PORT } = benchWorkerEnvSchema.parse(process.env);
  const logger = createLogger({ service: 'bench-worker' }, config.LOG_LEVEL);
  installSdkLogging(logger, 'WARN');
  const connection = await connectWorker(config);
  const worker = await createEngineWorker({
    config,
    connection,
    activities: createBareActivities(BENCH_SIGNALLER_PORT),
    workflows: { workflowsPath: path.join(__dirname, 'bare-payout-workflow.ts') },
  });
  stopWhenParentDies();
  logger.info('worker.started', { taskQueue: config.TEMPORAL_TASK_QUEUE });
  await worker.run();
  await connection.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
