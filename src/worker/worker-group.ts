/**
 * Temporal workers of one process run and stopped as one: SIGINT/SIGTERM reaches each (the SDK's runtime
 * shuts down every running worker, in-flight activities get the shutdown grace time), and one that stops,
 * by failing or by a shutdown, stops the others, so a process never goes on serving half its queues.
 */
import type { Worker } from '@temporalio/worker';

export interface WorkerGroup {
  /** Until every worker has stopped; rejects with the first one's failure. */
  run(): Promise<void>;
  shutdown(): void;
}

export function workerGroup(workers: readonly Worker[]): WorkerGroup {
  const shutdown = (): void => {
    for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
  };
  return {
    async run() {
      const ended = await Promise.allSettled(workers.map((worker) => worker.run().finally(shutdown)));
      const failed = ended.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    },
    shutdown,
  };
}
