/**
 * `CHAOS_TEMPORAL=cluster`: the chaos run's stack is `npm run cluster`'s (the Temporal server built from
 * the Go module on PostgreSQL with 16 history shards, the batch store on the same PostgreSQL, two
 * workers, the sandbox, the API), seen through the ChaosStack interface. What the monkey kills: the
 * Temporal server, PostgreSQL (every backend at once, crash recovery at the restart), the sandbox, the
 * API, and a worker (one of the two in turn: the other keeps polling, as in production).
 */
import { startCluster } from '../cluster/cluster-stack';
import {
  CHAOS_TIMING,
  engineReady,
  sandboxFaults,
  type ChaosStack,
  type ChaosStackOptions,
  type ComponentName,
} from './chaos-stack';
import type { Part, Supervisor } from './supervisor';

/** Several worker processes as one part: a kill takes the next one that is up, a start starts all of them. */
class WorkerGroup implements Part {
  readonly name = 'worker';
  private next = 0;

  constructor(private readonly workers: readonly Supervisor[]) {}

  get crashes(): number {
    return this.workers.reduce((sum, worker) => sum + worker.crashes, 0);
  }

  async start(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.start()));
  }

  async kill(): Promise<boolean> {
    for (let tried = 0; tried < this.workers.length; tried += 1) {
      const worker = this.workers[this.next % this.workers.length];
      this.next += 1;
      if (worker?.isUp()) return worker.kill();
    }
    return false;
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.stop()));
  }
}

/** A part whose every start by the run is followed by `afterStart` (the sandbox's faults, held in its memory, set again). */
function withAfterStart(part: Supervisor, afterStart: () => Promise<void>): Part {
  return {
    name: part.name,
    get crashes() {
      return part.crashes;
    },
    start: async () => {
      await part.start();
      await afterStart();
    },
    kill: () => part.kill(),
    stop: () => part.stop(),
  };
}

export async function startClusterChaosStack(
  options: Omit<ChaosStackOptions, 'store' | 'workflowBundle'>,
): Promise<ChaosStack> {
  const cluster = await startCluster({
    dataDir: options.dataDir,
    workers: 2,
    ports: 'free',
    env: {
      ...CHAOS_TIMING,
      SANDBOX_DEDUPLICATE: String(options.deduplicate),
      LOG_LEVEL: 'warn',
      MED_SYNC_INTERVAL_MS: '86400000',
    },
    log: options.log,
  });
  const { config, engineUrl, sandboxUrl } = cluster;
  const faults = sandboxFaults(sandboxUrl, config.SANDBOX_ADMIN_TOKEN);
  const parts: Record<ComponentName, Part> = {
    worker: new WorkerGroup(cluster.parts.workers),
    api: cluster.parts.api,
    sandbox: withAfterStart(cluster.parts.sandbox, () => faults.reapply()),
    temporal: cluster.parts.temporal,
    postgres: cluster.parts.postgres,
  };
  const components: ComponentName[] = ['worker', 'api', 'sandbox', 'temporal', 'postgres'];
  return {
    config,
    engineUrl,
    sandboxUrl,
    temporal: 'cluster',
    store: 'postgres',
    components,
    parts,
    setFaults: (next) => faults.set(next),
    clearFaults: () => faults.clear(),
    async allUp() {
      // PostgreSQL first: the others' starts (Temporal's above all) need it.
      await parts.postgres.start();
      await Promise.all(components.map((name) => parts[name].start()));
      await engineReady(engineUrl);
    },
    stop: () => cluster.stop(),
  };
}
