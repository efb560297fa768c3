/**
 * `npm start` as a test runs it: tools/stack/start-stack.ts on its defaults, except free ports and a data
 * folder of its own, with no provider URL inherited from the test's environment (the engine must find the
 * sandbox by SANDBOX_PORT). Resolves once the banner is printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePorts } from '../../src/net/free-port';
import { pollUntil, StopPolling } from '../../src/util/poll';

const root = path.join(__dirname, '..', '..');

export type StackPorts = Record<'engine' | 'apiMetrics' | 'sandbox' | 'temporal' | 'ui' | 'temporalMetrics' | 'workerMetrics' | 'workerSdkMetrics', number>;

export interface NpmStart {
  child: ChildProcess;
  ports: StackPorts;
  dataDir: string;
  /** What the launcher printed so far (its last 50 KB). */
  output: () => string;
  exited: Promise<number | null>;
}

/** `env`: settings of the run (`SANDBOX_PROFILE=seed npm start`). */
export async function npmStart(dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-stack-')), env: Record<string, string> = {}): Promise<NpmStart> {
  // Every port chosen here, the dev server's metrics one too: left to the Temporal CLI, it once took the
  // API's metrics port, free while the API was not yet listening.
  const [engine = 0, apiMetrics = 0, sandbox = 0, temporal = 0, ui = 0, temporalMetrics = 0, workerMetrics = 0, workerSdkMetrics = 0] = await freePorts(8);
  const ports = { engine, apiMetrics, sandbox, temporal, ui, temporalMetrics, workerMetrics, workerSdkMetrics };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'tools/stack/start-stack.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      ENGINE_PORT: String(ports.engine),
      METRICS_PORT: String(ports.apiMetrics),
      SANDBOX_PORT: String(ports.sandbox),
      TEMPORAL_ADDRESS: `127.0.0.1:${ports.temporal}`,
      TEMPORAL_UI_PORT: String(ports.ui),
      TEMPORAL_METRICS_PORT: String(ports.temporalMetrics),
      WORKER_METRICS_PORT: String(ports.workerMetrics),
      WORKER_SDK_METRICS_PORT: String(ports.workerSdkMetrics),
      PAYMENT_API_BASE_URL: '',
      ENGINE_PUBLIC_URL: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-50_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await pollUntil(
    () => {
      if (child.exitCode !== null) throw new StopPolling(`npm start exited with ${child.exitCode}:\n${output}`);
      return output.includes('Press Ctrl-C') ? true : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 250, description: 'the stack banner' },
  );
  return { child, ports, dataDir, output: () => output, exited };
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
