/**
 * The bench's yardstick phase: N minimal payouts (tools/bench/minimal-payout/, the Temporal SDK and Node only) on a
 * fresh Temporal database and a sandbox of their own whose callbacks come `callbackDelayMs` after each withdrawal,
 * `window` in flight, started eagerly by the payout's own process. Measured as the engine's phase is: the CPU of each
 * process (the payout's process is its worker, starter and callback receiver), and the server's store per payout.
 */
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@temporalio/client';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { Config } from '../../src/config/env';
import { freePort } from '../../src/net/free-port';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { hasExited, spawnService, stopChild } from '../stack/child-services';
import { processCpu, type CpuReading } from './cpu-use';
import { freshTemporal, startSandbox, type PhasePlace } from './engine-stack';
import { delayCallbacks } from './sandbox-callback-delay';
import { persistencePerWorkflow, readPersistenceCounters, type PersistencePerWorkflow } from './server-persistence';
import { countWorkflows } from './single-payouts';

const TASK_QUEUE = 'minimal-payout';
/** The minimal payouts still open (the cluster runs the engine's workflows beside them). */
const STILL_RUNNING = `WorkflowType = 'minimalPayout' AND ExecutionStatus = 'Running'`;

const doneLineSchema = z.object({
  payouts: z.number(),
  eagerlyStarted: z.number(),
  states: z.record(z.string(), z.number()),
  seconds: z.number(),
});
type DoneLine = z.infer<typeof doneLineSchema>;

export interface MinimalRunResult {
  payouts: number;
  completed: number;
  eagerlyStarted: number;
  seconds: number;
  perSecond: number;
  cpu: CpuReading;
  store: PersistencePerWorkflow;
}

/** The process's output, read from its start (so that no line is missed, nor its pipe left full): its marker lines. */
function markerLines(child: ChildProcess): (marker: string, timeoutMs: number) => Promise<string> {
  if (!child.stdout) throw new Error('the minimal payout has no output to read');
  const seen: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('minimal.')) seen.push(line);
  });
  return (marker, timeoutMs) =>
    pollUntil(
      () => {
        const line = seen.find((each) => each.startsWith(marker));
        if (line !== undefined) return line.slice(marker.length).trim();
        if (hasExited(child)) throw new StopPolling(`the minimal payout exited before "${marker}"`);
        return undefined;
      },
      { timeoutMs, intervalMs: 100, description: `the minimal payout to print "${marker}"` },
    );
}

/** The minimal payout's process, polling: `run` starts a run of it and answers the run's last line. */
export interface MinimalService {
  child: ChildProcess;
  /** A run, answered once its last payout's workflow has closed. */
  run(
    request: { prefix: string; payouts: number; window: number; rate?: number },
    timeoutMs: number,
  ): Promise<DoneLine>;
}

/**
 * Starts the minimal payout's process on the Temporal server `env` names (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE),
 * calling the sandbox at `sandboxUrl` with `config`'s credentials, `slots` workflow tasks at once; `client`, of the
 * same server, sees its workflows close.
 */
export async function startMinimalService(options: {
  env: NodeJS.ProcessEnv;
  client: Client;
  config: Config;
  sandboxUrl: string;
  slots: number;
}): Promise<MinimalService> {
  const service = spawnService('minimal-payout', {
    env: {
      ...options.env,
      MINIMAL_TASK_QUEUE: TASK_QUEUE,
      MINIMAL_CALLBACK_PORT: String(await freePort()),
      PAYMENT_API_BASE_URL: options.sandboxUrl,
      PAYMENT_API_CLIENT_ID: options.config.PAYMENT_API_CLIENT_ID,
      PAYMENT_API_CLIENT_SECRET: options.config.PAYMENT_API_CLIENT_SECRET,
      WEBHOOK_SECRET: options.config.WEBHOOK_SECRET[0] ?? '',
      // The engine worker's cache and Node flags (tools/stack/child-services.ts): only the code differs.
      MINIMAL_MAX_CACHED_WORKFLOWS: String(options.config.WORKER_MAX_CACHED_WORKFLOWS),
      MINIMAL_WORKFLOW_TASK_SLOTS: String(options.slots),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const marker = markerLines(service);
  try {
    await marker('minimal.ready', 120_000);
  } catch (error) {
    await stopChild(service, 30_000);
    throw error;
  }
  return {
    child: service,
    async run({ prefix, payouts, window, rate }, timeoutMs) {
      service.stdin?.write(`run ${prefix} ${payouts} ${window}${rate === undefined ? '' : ` ${rate}`}\n`);
      const done = doneLineSchema.parse(JSON.parse(await marker('minimal.done', timeoutMs)));
      // The last checks were seen; their workflows close in the task that ran them.
      await pollUntil(async () => ((await countWorkflows(options.client, STILL_RUNNING)) === 0 ? true : undefined), {
        timeoutMs: 60_000,
        intervalMs: 250,
        description: 'every minimal payout to close',
      });
      return done;
    },
  };
}

export async function measureMinimalPayouts(
  options: PhasePlace & { config: Config; payouts: number; window: number; callbackDelayMs: number; timeoutMs: number },
): Promise<MinimalRunResult> {
  const temporal = await freshTemporal(options);
  try {
    const sandbox = await startSandbox(temporal, { ...temporal.env, SANDBOX_SETTLE_MS: '0' }, options.ports);
    const sandboxUrl = `http://127.0.0.1:${options.ports.sandbox}`;
    await delayCallbacks(sandboxUrl, options.config.SANDBOX_ADMIN_TOKEN, options.callbackDelayMs);
    // Eager start as it is meant to be used: a free slot for each payout of the window (issue 41).
    const service = await startMinimalService({
      env: temporal.env,
      client: temporal.client.client,
      config: options.config,
      sandboxUrl,
      slots: Math.max(options.window, 2),
    });
    temporal.children.push(service.child);

    const cpu = processCpu({
      temporal: temporal.server.pid,
      worker: service.child.pid,
      sandbox: sandbox.pid,
      client: process.pid,
    });
    const storeBefore = await readPersistenceCounters(temporal.metricsUrl);
    const prefix = `minimal-${Date.now().toString(36)}`;
    const run = await service.run({ prefix, payouts: options.payouts, window: options.window }, options.timeoutMs);
    const used = cpu();
    const store = persistencePerWorkflow(
      storeBefore,
      await readPersistenceCounters(temporal.metricsUrl),
      options.payouts,
    );
    return {
      payouts: run.payouts,
      completed: run.states.COMPLETO ?? 0,
      eagerlyStarted: run.eagerlyStarted,
      seconds: run.seconds,
      perSecond: run.payouts / run.seconds,
      cpu: used,
      store,
    };
  } finally {
    await temporal.stop();
  }
}
