/**
 * `npm start` as a test runs it: tools/stack/start-stack.ts on its defaults, except free ports and a data
 * folder of its own, with no provider URL inherited from the test's environment (the engine must find the
 * sandbox by SANDBOX_PORT). Resolves once the banner is printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freeStackPortsWithUi } from '../../tools/stack/local-stack-env';
import { pollUntil, StopPolling } from '../../src/util/poll';

const root = path.join(__dirname, '..', '..');

export type StackPorts = Record<
  'engine' | 'apiMetrics' | 'sandbox' | 'temporal' | 'ui' | 'temporalMetrics' | 'workerMetrics' | 'workerSdkMetrics',
  number
>;

export interface NpmStart {
  child: ChildProcess;
  ports: StackPorts;
  dataDir: string;
  /** What the launcher printed so far (its last 50 KB). */
  output: () => string;
  exited: Promise<number | null>;
}

/** What starts the stack, where, with what environment (the stack's settings are added to it). */
export interface Launcher {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** This checkout's launcher on this test's Node, without npm in between. */
const thisCheckout = (): Launcher => ({
  command: process.execPath,
  args: ['--import', 'tsx', path.join(root, 'tools/stack/start-stack.ts')],
  cwd: root,
  env: process.env,
});

/** `env`: settings of the run (`SANDBOX_PROFILE=seed npm start`). */
export async function npmStart(
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-stack-')),
  env: Record<string, string> = {},
  launcher = thisCheckout(),
): Promise<NpmStart> {
  // Every port chosen here, the dev server's metrics one too: left to the Temporal CLI, it once took the
  // API's metrics port, free while the API was not yet listening.
  const ports: StackPorts = await freeStackPortsWithUi();
  const child = spawn(launcher.command, launcher.args, {
    cwd: launcher.cwd,
    env: {
      ...launcher.env,
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

/** Pids of live processes whose command line or environment names `text` (a stack's own data folder). */
export function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return [`/proc/${pid}/cmdline`, `/proc/${pid}/environ`].some((file) =>
          readFileSync(file).toString('latin1').includes(text),
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}
