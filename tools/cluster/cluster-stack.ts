/**
 * `npm run cluster`'s stack, in a data folder of its own: PostgreSQL (initdb from the machine's binaries),
 * Temporal's two databases set up by the schema tool, the Temporal server on ops/temporal's config files
 * (16 history shards, advanced visibility on PostgreSQL, a production dynamic config), the namespace and
 * the engine's search attributes, the sandbox, N worker processes and the engine API, the API and workers
 * sharing the batch store in PostgreSQL. Each part but PostgreSQL runs under a Supervisor (a part that
 * exits is started again, as systemd would), its output in `logs/<part>.log`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { Supervisor, type Running } from '../chaos/supervisor';
import { loadConfig, type Config } from '../../src/config/env';
import { POSTGRES_SUPERUSER } from '../stack/postgres-server';
import { freePort } from '../../src/net/free-port';
import { runToExit } from '../stack/child-services';
import { freeStackPorts, localStackEnv, type LocalStackPorts } from '../stack/local-stack-env';
import { launchLoggedService } from '../stack/logged-service';
import { postgresPart } from '../stack/postgres-part';
import { prepareNamespace } from '../../src/temporal/namespace-setup';
import { pollUntil } from '../../src/util/poll';
import {
  checkDynamicConfig,
  freeServerPort,
  freeServerPorts,
  launchTemporalServer,
  serverEnvironment,
  setupDatabases,
  type ServerPorts,
} from './temporal-server';

export interface ClusterOptions {
  dataDir: string;
  workers: number;
  /** `free`: every port free (checks and measurements beside anything); `configured`: the engine API, the sandbox and Temporal's frontend where the environment says (ENGINE_PORT, SANDBOX_PORT, TEMPORAL_ADDRESS). */
  ports: 'free' | 'configured';
  /** Settings of the engine and the sandbox beyond the environment's. */
  env?: Readonly<Record<string, string>>;
  /** History shards of a new database (ops/temporal/config.yaml's 16 otherwise). */
  shards?: number;
  /** Aborted: the start stops what it started and rejects (Ctrl-C while it starts). */
  signal?: AbortSignal;
  log: (line: string) => void;
}

export interface Cluster {
  config: Config;
  engineUrl: string;
  sandboxUrl: string;
  temporalAddress: string;
  serverMetricsUrl: string;
  /** Where each worker serves its metrics now (a restarted worker may have new ports). */
  workerMetricsUrls(): string[];
  logDir: string;
  /** PostgreSQL too: a chaos run kills it (`pg_ctl stop -m immediate`) and its supervisor starts it again. */
  parts: { postgres: Supervisor; temporal: Supervisor; sandbox: Supervisor; workers: Supervisor[]; api: Supervisor };
  /** postgres://… of a database on the cluster's PostgreSQL. */
  databaseUrl(database: string): string;
  /** The environment the engine's processes run with (a bench worker joins with it). */
  engineEnv: NodeJS.ProcessEnv;
  /** The process id of each part now (after restarts, the new one), PostgreSQL's postmaster as `postgres`: where CPU is read. */
  pids(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

/** Temporal in one process with 20 + 10 connections per service, the API and workers' pools: more than PostgreSQL's default 100. */
const POSTGRES_SETTINGS = { max_connections: '300' };
const BATCH_DATABASE = 'batches';

/**
 * A worker's metrics ports: the configured ones for the first worker of a `configured` cluster; free ones
 * otherwise, chosen again at each start (a port found free may be taken by another process before the
 * worker binds it, and a retry must not meet the same one).
 */
async function workerMetricsPorts(
  options: ClusterOptions,
  workerIndex: number,
  configured: Config,
): Promise<{ metrics: number; sdkMetrics: number }> {
  if (options.ports === 'free' || workerIndex > 0) return { metrics: await freePort(), sdkMetrics: await freePort() };
  return { metrics: configured.WORKER_METRICS_PORT, sdkMetrics: configured.WORKER_SDK_METRICS_PORT };
}

export class ClusterStopped extends Error {
  constructor() {
    super('the cluster was stopped while it started');
    this.name = 'ClusterStopped';
  }
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const logDir = path.join(options.dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const logFile = (name: string) => path.join(logDir, `${name}.log`);
  const configured = loadConfig({ ...process.env, ...options.env });
  const frontendPort =
    options.ports === 'free' ? await freeServerPort() : Number(configured.TEMPORAL_ADDRESS.split(':')[1]);
  const free = await freeStackPorts();
  const stackPorts: LocalStackPorts =
    options.ports === 'free' ? free : { ...free, engine: configured.ENGINE_PORT, sandbox: configured.SANDBOX_PORT };
  const serverPorts: ServerPorts = await freeServerPorts(frontendPort);
  const temporalAddress = `127.0.0.1:${frontendPort}`;

  const stopped: (() => Promise<void>)[] = [];
  // Each call waits for the previous one, then stops what was started since: an abort while a part is
  // starting stops the others, and the start's own failure path stops that part once it is up.
  let stopping = Promise.resolve();
  const stopAll = (): Promise<void> => {
    stopping = stopping.then(async () => {
      for (let stop = stopped.pop(); stop; stop = stopped.pop())
        await stop().catch((error: unknown) =>
          options.log(`cluster: ${error instanceof Error ? error.message : String(error)}`),
        );
    });
    return stopping;
  };
  // Stopping the supervisors ends their start loops; each step after an await then gives up.
  options.signal?.addEventListener('abort', () => void stopAll(), { once: true });
  const proceed = <T>(value: T): T => {
    if (options.signal?.aborted) throw new ClusterStopped();
    return value;
  };

  try {
    const pids: Record<string, number | undefined> = {};
    const supervise = (name: string, launch: () => Promise<Running>): Supervisor => {
      const part = new Supervisor(
        name,
        async () => {
          const running = await launch();
          pids[name] = running.pid;
          return running;
        },
        options.log,
      );
      stopped.push(() => part.stop());
      return part;
    };

    // Before anything starts: a finding in the dynamic config stops the cluster, not a line in its log.
    checkDynamicConfig();
    options.log(`cluster: PostgreSQL in ${path.join(options.dataDir, 'postgres')}`);
    const database = postgresPart({
      dir: path.join(options.dataDir, 'postgres'),
      port: await freePort(),
      durable: true,
      settings: POSTGRES_SETTINGS,
    });
    const postgres = supervise('postgres', () => database.launch());
    proceed(await postgres.start());
    const serverEnv = serverEnvironment({
      ports: serverPorts,
      database: { host: '127.0.0.1', port: database.port, user: POSTGRES_SUPERUSER, password: '' },
      ...(options.shards ? { shards: options.shards } : {}),
    });
    options.log('cluster: Temporal databases (ops/temporal/setup-databases.sh)');
    await setupDatabases(serverEnv, logFile('temporal-databases'));
    const batchStoreUrl = proceed(
      await (database.current()?.ensureDatabase(BATCH_DATABASE) ??
        Promise.reject(new Error('PostgreSQL did not start'))),
    );

    const engineEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...localStackEnv({ dataDir: options.dataDir, temporalAddress, ports: stackPorts }),
      DATABASE_URL: batchStoreUrl,
      SANDBOX_DB: path.join(options.dataDir, 'sandbox.sqlite'),
      WORKFLOW_BUNDLE_PATH: path.join(options.dataDir, 'workflow-bundle.js'),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      ...options.env,
    };
    const config = loadConfig(engineEnv);

    options.log(`cluster: Temporal server on ${temporalAddress}, and the workflow bundle`);
    const temporal = supervise('temporal', () => launchTemporalServer(serverEnv, logFile('temporal')));
    proceed(
      await Promise.all([
        temporal.start(),
        runToExit('build-workflows', [engineEnv.WORKFLOW_BUNDLE_PATH ?? ''], engineEnv, logFile('build-workflows')),
      ]),
    );
    const connection = await Connection.connect({ address: temporalAddress });
    try {
      await prepareNamespace(connection, config.TEMPORAL_NAMESPACE);
    } finally {
      await connection.close();
    }
    proceed(connection);

    const engineUrl = `http://127.0.0.1:${stackPorts.engine}`;
    const sandboxUrl = `http://127.0.0.1:${stackPorts.sandbox}`;
    const sandbox = supervise('sandbox', () =>
      launchLoggedService('sandbox', engineEnv, logFile('sandbox'), { healthUrl: `${sandboxUrl}/healthz` }),
    );
    proceed(await sandbox.start());
    const metricsPorts: number[] = [];
    const workers = Array.from({ length: options.workers }, (_, index) =>
      supervise(`worker-${index + 1}`, async () => {
        const ports = await workerMetricsPorts(options, index, configured);
        metricsPorts[index] = ports.metrics;
        // At info whatever the others log: its start line is how it is seen ready.
        const env = {
          ...engineEnv,
          WORKER_METRICS_PORT: String(ports.metrics),
          WORKER_SDK_METRICS_PORT: String(ports.sdkMetrics),
          LOG_LEVEL: 'info',
        };
        return launchLoggedService('worker', env, logFile(`worker-${index + 1}`), { marker: '"worker.started"' });
      }),
    );
    options.log(`cluster: sandbox on ${sandboxUrl}, ${options.workers} workers, the engine API on ${engineUrl}`);
    proceed(await Promise.all(workers.map((worker) => worker.start())));
    const api = supervise('api', () =>
      launchLoggedService('api', engineEnv, logFile('api'), { healthUrl: `${engineUrl}/healthz` }),
    );
    proceed(await api.start());
    await pollUntil(
      async () => ((await fetch(`${engineUrl}/readyz`, { signal: AbortSignal.timeout(5_000) })).ok ? true : undefined),
      { timeoutMs: 120_000, intervalMs: 500, description: 'the engine API to be ready' },
    );
    return {
      config,
      engineUrl,
      sandboxUrl,
      temporalAddress,
      serverMetricsUrl: `http://127.0.0.1:${serverPorts.metrics}/metrics`,
      workerMetricsUrls: () => metricsPorts.map((port) => `http://127.0.0.1:${port}/metrics`),
      logDir,
      parts: { postgres, temporal, sandbox, workers, api },
      databaseUrl: (name) => database.url(name),
      engineEnv,
      pids: () => ({ ...pids, postgres: database.current()?.pid() }),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
