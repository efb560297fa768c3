/**
 * Bare workflows (two empty activities around one signal), as many as complete in a fixed time, from
 * `concurrency` lanes that each start one, signal it and wait for its result. Completions in the first
 * `warmupSeconds` (connections, JIT, caches) are not counted.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { bareSignal, type bareWorkflow } from './bare-workflow';

export interface BareLimitResult {
  completed: number;
  /** Completed in all, the warm-up's included: what the phase's resource use divides by. */
  completedWithWarmup: number;
  seconds: number;
  perSecond: number;
}

export async function measureBareLimit(client: Client, options: { taskQueue: string; seconds: number; warmupSeconds: number; concurrency: number }): Promise<BareLimitResult> {
  const run = randomUUID().slice(0, 8);
  const started = Date.now();
  const countFrom = started + options.warmupSeconds * 1_000;
  const deadline = countFrom + options.seconds * 1_000;
  let sequence = 0;
  let completed = 0;
  let completedWithWarmup = 0;
  const lane = async (): Promise<void> => {
    while (Date.now() < deadline) {
      const handle = await client.workflow.start<typeof bareWorkflow>('bareWorkflow', { taskQueue: options.taskQueue, workflowId: `bare:${run}:${sequence++}` });
      await handle.signal(bareSignal);
      await handle.result();
      completedWithWarmup += 1;
      if (Date.now() >= countFrom) completed += 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  const seconds = (Date.now() - countFrom) / 1_000;
  return { completed, completedWithWarmup, seconds, perSecond: completed / seconds };
}
