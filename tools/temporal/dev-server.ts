/**
 * Starts `temporal server start-dev` as a child process and waits, with a generous deadline, until its
 * frontend answers for the namespace. The SDK's own ephemeral-server helper allows only a few seconds,
 * which a loaded 2-core machine can miss.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { STACK_PARENT_PID_ENV } from '../../src/cli/parent-watch';
import { ENGINE_SEARCH_ATTRIBUTES, searchAttributeCliPairs } from '../../src/temporal/search-attributes';

const EVERY_ENGINE_ATTRIBUTE = ENGINE_SEARCH_ATTRIBUTES.map((key) => `${key.name} IS NULL`).join(' AND ');

const TIED_TO_PARENT = path.join(__dirname, '..', 'stack', 'tied-to-parent.ts');

export interface DevServerOptions {
  binary: string;
  ip?: string;
  port: number;
  /** Omitted: no Web UI (headless). */
  uiPort?: number;
  /** Omitted: in memory, lost when the process stops. */
  dbFile?: string;
  namespace?: string;
  codecEndpoint?: string;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  startupTimeoutMs?: number;
  /**
   * Own process group: a terminal's Ctrl-C reaches the parent only, which then stops this in order. The
   * server then runs under tools/stack/tied-to-parent.ts, which stops it if the parent dies without doing so.
   */
  detached?: boolean;
  /** Serves the server's Prometheus metrics (`/metrics`) on this port; omitted: none. */
  metricsPort?: number;
  /** Where the server's own output goes; default: inherited. */
  stdio?: 'inherit' | 'ignore' | 'pipe';
}

export interface DevServerHandle {
  address: string;
  uiUrl?: string;
  pid: number;
  stop(): Promise<void>;
}

export function devServerArgs(options: DevServerOptions): string[] {
  const args = ['server', 'start-dev', '--ip', options.ip ?? '127.0.0.1', '--port', String(options.port)];
  if (options.uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort), '--ui-disable-news-fetch');
  if (options.dbFile) args.push('--db-filename', options.dbFile);
  if (options.namespace && options.namespace !== 'default') args.push('--namespace', options.namespace);
  if (options.codecEndpoint) args.push('--ui-codec-endpoint', options.codecEndpoint);
  for (const pair of searchAttributeCliPairs()) args.push('--search-attribute', pair);
  // One SQLite connection serves the whole server: WAL and no fsync per commit keep it from stalling.
  args.push('--sqlite-pragma', 'journal_mode=WAL', '--sqlite-pragma', 'synchronous=OFF');
  // start-dev forces a cluster-metadata read on every search-attribute lookup (each start, upsert and
  // visibility write: about three per payout start on SQLite's one connection) so that attributes created
  // after start-up are seen at once. Ours are all registered by the flags above, before the frontend serves,
  // and production servers leave the refresh off: so do we (startDevServer checks they are visible).
  args.push('--dynamic-config-value', 'system.forceSearchAttributesCacheRefreshOnRead=false');
  args.push('--log-level', options.logLevel ?? 'warn');
  if (options.metricsPort !== undefined) args.push('--metrics-port', String(options.metricsPort));
  return args;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export async function startDevServer(options: DevServerOptions): Promise<DevServerHandle> {
  if (options.dbFile) mkdirSync(path.dirname(options.dbFile), { recursive: true });
  const ip = options.ip ?? '127.0.0.1';
  const address = `${ip}:${options.port}`;
  const detached = options.detached ?? false;
  const [command, args] = detached
    ? [process.execPath, ['--import', 'tsx', TIED_TO_PARENT, options.binary, ...devServerArgs(options)]]
    : [options.binary, devServerArgs(options)];
  const child = spawn(command, args, {
    stdio: ['ignore', options.stdio ?? 'inherit', options.stdio ?? 'inherit'],
    detached,
    env: detached ? { ...process.env, [STACK_PARENT_PID_ENV]: String(process.pid) } : process.env,
  });
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? `code ${code}`}`;
  });

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    if (!(await waitForExit(child, 10_000))) {
      // Detached, the server and its runner are one process group: kill both.
      if (detached && child.pid) process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
      await waitForExit(child, 5_000);
    }
  };

  try {
    await pollUntil(
      async () => {
        if (exited)
          throw new StopPolling(`temporal dev server ${exited} before it was ready (is port ${options.port} free?)`);
        const connection = await Connection.connect({ address, connectTimeout: 1_000 });
        try {
          const namespace = options.namespace ?? 'default';
          await connection.workflowService.describeNamespace({ namespace });
          // A query naming every engine attribute is refused until the frontend's cache knows them all.
          await connection.workflowService.countWorkflowExecutions({ namespace, query: EVERY_ENGINE_ATTRIBUTE });
          return true;
        } finally {
          await connection.close();
        }
      },
      {
        timeoutMs: options.startupTimeoutMs ?? 90_000,
        intervalMs: 250,
        description: `the Temporal dev server on ${address}`,
      },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    address,
    uiUrl: options.uiPort === undefined ? undefined : `http://${ip === '0.0.0.0' ? '127.0.0.1' : ip}:${options.uiPort}`,
    pid: child.pid ?? -1,
    stop,
  };
}
