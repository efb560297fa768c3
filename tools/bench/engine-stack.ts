/**
 * The bench's stacks, each process on its own as in production: a Temporal dev server on a fresh database with its
 * metrics, and the engine on it (the sandbox, a worker on a prebuilt workflow bundle, the engine API).
 */
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { loadConfig } from '../../src/config/env';
import { connectClient, type TemporalClientHandle } from '../../src/temporal/connection';
import { startDevServer, type DevServerHandle } from '../temporal/dev-server';
import { temporalCliPath } from '../temporal/binaries';
import type { LocalStackPorts } from '../stack/local-stack-env';
import { runToExit, spawnKeepingTail, spawnWaitingForLog, stopChild, waitHealthy } from '../stack/child-services';

export interface FreshTemporal {
  server: DevServerHandle;
  client: TemporalClientHandle;
  metricsUrl: string;
  env: NodeJS.ProcessEnv;
  /** The processes a phase starts on it (the sandbox, a worker, ...): `stop` ends them, the last started first. */
  children: ChildProcess[];
  /** Its children, then the client and the server. */
  stop: () => Promise<void>;
}

/** Where a phase runs: its directory (the server's database), the environment its processes start with, its ports. */
export interface PhasePlace {
  dir: string;
  env: NodeJS.ProcessEnv;
  ports: LocalStackPorts;
}

/**
 * A Temporal dev server on a database of its own in `dir`, with its metrics, and a client of it. It listens on
 * the ports reserved with the stack's (one phase's server is stopped before the next starts on them).
 */
export async function freshTemporal({ dir, env, ports }: PhasePlace): Promise<FreshTemporal> {
  const metricsPort = ports.temporalMetrics;
  const server = await startDevServer({
    binary: temporalCliPath(),
    port: ports.temporal,
    dbFile: path.join(dir, 'temporal.sqlite'),
    metricsPort,
    stdio: 'ignore',
  });
  const phaseEnv = { ...env, TEMPORAL_ADDRESS: server.address };
  try {
    const client = await connectClient(loadConfig(phaseEnv));
    const children: ChildProcess[] = [];
    const stop = async () => {
      for (const child of children.splice(0).reverse()) await stopChild(child, 30_000);
      await client.close();
      await server.stop();
    };
    return { server, client, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`, env: phaseEnv, children, stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The sandbox (its admin API included) on the stack's port, once it answers /healthz; `temporal.stop` ends it. */
export async function startSandbox(
  temporal: FreshTemporal,
  env: NodeJS.ProcessEnv,
  ports: Pick<LocalStackPorts, 'sandbox'>,
): Promise<ChildProcess> {
  const sandbox = spawnKeepingTail('sandbox', env);
  temporal.children.push(sandbox.child);
  await waitHealthy(`http://127.0.0.1:${ports.sandbox}/healthz`, sandbox.child, 'sandbox', { tail: sandbox.tail });
  return sandbox.child;
}

export interface EngineStack {
  temporal: FreshTemporal;
  engineUrl: string;
  apiKey: string;
  worker: ChildProcess;
  api: ChildProcess;
  sandbox: ChildProcess;
  /** How long the engine's processes took from their spawn to the API's 200 on /readyz. */
  startMs: number;
  /** The worker, the API and the sandbox first, then the server. */
  stop: () => Promise<void>;
}

/** The engine on a fresh Temporal database, answering /readyz; `bundle` is built there first unless it exists. */
export async function startEngineStack(
  options: PhasePlace & { bundle: string; buildBundle: boolean },
): Promise<EngineStack> {
  const temporal = await freshTemporal(options);
  try {
    const env = { ...temporal.env, WORKFLOW_BUNDLE_PATH: options.bundle };
    if (options.buildBundle) await runToExit('build-workflows', [options.bundle], env);
    const started = performance.now();
    const sandbox = await startSandbox(temporal, env, options.ports);
    const worker = await spawnWaitingForLog('worker', { ...env, LOG_LEVEL: 'info' }, '"worker.started"');
    temporal.children.push(worker);
    const api = spawnKeepingTail('api', env);
    temporal.children.push(api.child);
    const engineUrl = `http://127.0.0.1:${options.ports.engine}`;
    await waitHealthy(`${engineUrl}/readyz`, api.child, 'engine API', { tail: api.tail, timeoutMs: 120_000 });
    return {
      temporal,
      engineUrl,
      apiKey: loadConfig(env).ENGINE_API_KEYS[0]?.secret ?? '',
      worker,
      api: api.child,
      sandbox,
      startMs: Math.round(performance.now() - started),
      stop: temporal.stop,
    };
  } catch (error) {
    await temporal.stop();
    throw error;
  }
}
