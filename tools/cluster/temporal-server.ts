/**
 * The Temporal server of a cluster, natively: the binary of `npm run cluster:install` on the config files
 * of ops/temporal (the ones docker-compose.yml mounts), their variables set to this machine's PostgreSQL
 * and ports. Every service of the server (frontend, history, matching, worker) runs in the one process,
 * each on its own gRPC and membership port.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import type { Running } from '../chaos/supervisor';
import { freePort, freePorts } from '../../src/net/free-port';
import { launchLoggedBinary } from '../stack/logged-service';
import { PROJECT_ROOT } from '../pip-wheels';
import { SERVER_BIN_DIR, serverInstalled, ServerNotInstalledError, temporalServerBinary } from './server-build';

export const TEMPORAL_OPS_DIR = path.join(PROJECT_ROOT, 'ops', 'temporal');
export const SERVER_CONFIG_FILE = path.join(TEMPORAL_OPS_DIR, 'config.yaml');
export const DYNAMIC_CONFIG_FILE = path.join(TEMPORAL_OPS_DIR, 'dynamicconfig.yaml');
export const SETUP_DATABASES_SCRIPT = path.join(TEMPORAL_OPS_DIR, 'setup-databases.sh');

export interface ServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
  /** The server's Prometheus metrics (`/metrics`). */
  metrics: number;
}

/** The server stores its services' ports in a smallint column (cluster_membership): free ports are below 32768 (PORTS_FOR_SERVERS). */
export const freeServerPort = (): Promise<number> => freePort();

const OTHER_LISTENERS = [
  'frontendHttp',
  'frontendMembership',
  'history',
  'historyMembership',
  'matching',
  'matchingMembership',
  'worker',
  'workerMembership',
  'metrics',
] as const satisfies readonly Exclude<keyof ServerPorts, 'frontend'>[];

/** Free ports for every listener but the frontend's, which the caller chooses (TEMPORAL_ADDRESS). */
export async function freeServerPorts(frontend: number): Promise<ServerPorts> {
  const ports = (await freePorts(10)).filter((port) => port !== frontend);
  return { frontend, ...Object.fromEntries(OTHER_LISTENERS.map((name, index) => [name, ports[index]])) } as ServerPorts;
}

export interface ServerDatabase {
  host: string;
  port: number;
  user: string;
  password: string;
}

/** The variables ops/temporal/config.yaml and setup-databases.sh read (the names of Temporal's images). */
export function serverEnvironment(options: {
  ports: ServerPorts;
  database: ServerDatabase;
  shards?: number;
  logLevel?: string;
}): Record<string, string> {
  const { ports, database } = options;
  return {
    POSTGRES_SEEDS: database.host,
    DB_PORT: String(database.port),
    POSTGRES_USER: database.user,
    POSTGRES_PWD: database.password,
    BIND_ON_IP: '127.0.0.1',
    FRONTEND_GRPC_PORT: String(ports.frontend),
    FRONTEND_HTTP_PORT: String(ports.frontendHttp),
    FRONTEND_MEMBERSHIP_PORT: String(ports.frontendMembership),
    HISTORY_GRPC_PORT: String(ports.history),
    HISTORY_MEMBERSHIP_PORT: String(ports.historyMembership),
    MATCHING_GRPC_PORT: String(ports.matching),
    MATCHING_MEMBERSHIP_PORT: String(ports.matchingMembership),
    WORKER_GRPC_PORT: String(ports.worker),
    WORKER_MEMBERSHIP_PORT: String(ports.workerMembership),
    PROMETHEUS_ENDPOINT: `127.0.0.1:${ports.metrics}`,
    DYNAMIC_CONFIG_FILE_PATH: DYNAMIC_CONFIG_FILE,
    LOG_LEVEL: options.logLevel ?? 'warn',
    ...(options.shards === undefined ? {} : { NUM_HISTORY_SHARDS: String(options.shards) }),
  };
}

/**
 * The server starts on a dynamic config key it does not know, or a value of the wrong type, and only logs it: a
 * misspelt limit would silently run on its default. Its own validator reads the file first; any finding stops here.
 */
export function checkDynamicConfig(file: string = DYNAMIC_CONFIG_FILE): void {
  if (!serverInstalled()) throw new ServerNotInstalledError();
  const report = execFileSync(temporalServerBinary(), ['validate-dynamic-config', file], { encoding: 'utf8' });
  const findings = report
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^(warning|error)\b/i.test(line));
  if (findings.length > 0) throw new Error(`${file}: ${findings.join('; ')}`);
}

/** ops/temporal/setup-databases.sh with the schema tool on PATH: creates or updates Temporal's two databases. */
export function setupDatabases(env: Record<string, string>, logFile: string): Promise<void> {
  if (!serverInstalled()) return Promise.reject(new ServerNotInstalledError());
  return new Promise((resolve, reject) => {
    const fd = openSync(logFile, 'a');
    const child = spawn('sh', [SETUP_DATABASES_SCRIPT], {
      env: { ...process.env, ...env, PATH: `${SERVER_BIN_DIR}${path.delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${SETUP_DATABASES_SCRIPT} exited with ${code} (see ${logFile})`)),
    );
  });
}

async function frontendAnswers(address: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1_000 });
  try {
    await connection.workflowService.getSystemInfo({});
    return true;
  } finally {
    await connection.close();
  }
}

/** Starts the server; ready once its frontend answers (the namespace is prepareNamespace's). */
export function launchTemporalServer(env: Record<string, string>, logFile: string): Promise<Running> {
  if (!serverInstalled()) return Promise.reject(new ServerNotInstalledError());
  const address = `${env.BIND_ON_IP ?? '127.0.0.1'}:${env.FRONTEND_GRPC_PORT ?? '7233'}`;
  // No authorizer: the frontend is reached on loopback here, over a private network or mTLS elsewhere (docs/security.md).
  return launchLoggedBinary(
    'temporal',
    temporalServerBinary(),
    ['--config-file', SERVER_CONFIG_FILE, '--allow-no-auth', 'start'],
    env,
    logFile,
    {
      probe: () => frontendAnswers(address).catch(() => false),
    },
  );
}
