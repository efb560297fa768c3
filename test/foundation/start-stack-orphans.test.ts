/**
 * The launcher of `npm start` keeps each service in a process group of its own (so Ctrl-C reaches only
 * the launcher, which stops them in order). When the launcher itself is killed (SIGKILL: no chance to
 * stop anything), every service it started must still go: none keeps running or holds its port.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/net/free-port';
import { pollUntil, StopPolling } from '../../src/util/poll';

const root = path.join(__dirname, '..', '..');

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Pids of live processes whose command line or environment names `text` (the stack's own data folder). */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return [`/proc/${pid}/cmdline`, `/proc/${pid}/environ`].some((file) => readFileSync(file).toString('latin1').includes(text));
      } catch {
        return false;
      }
    })
    .map(Number);
}

test('a SIGKILLed npm start leaves no service running and no port held', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-orphans-'));
  const ports = { engine: await freePort(), sandbox: await freePort(), temporal: await freePort(), ui: await freePort(), workerMetrics: await freePort(), workerSdkMetrics: await freePort() };
  const launcher = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/start-stack.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      ENGINE_PORT: String(ports.engine),
      SANDBOX_PORT: String(ports.sandbox),
      TEMPORAL_ADDRESS: `127.0.0.1:${ports.temporal}`,
      TEMPORAL_UI_PORT: String(ports.ui),
      WORKER_METRICS_PORT: String(ports.workerMetrics),
      WORKER_SDK_METRICS_PORT: String(ports.workerSdkMetrics),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  launcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  launcher.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => launcher.once('exit', () => resolve()));
  try {
    await pollUntil(
      () => {
        if (launcher.exitCode !== null) throw new StopPolling(`npm start exited with ${launcher.exitCode}:\n${output}`);
        return output.includes('Press Ctrl-C') ? true : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 250, description: 'the stack banner' },
    );
    // The services it started: the Temporal server (its database is in the data folder) and the three others.
    expect(processesNaming(dataDir).length).toBeGreaterThanOrEqual(4);
    launcher.kill('SIGKILL');
    await exited;

    await pollUntil(
      async () => {
        const open = await Promise.all(Object.values(ports).map(portOpen));
        return !open.includes(true) && processesNaming(dataDir).length === 0 ? true : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250, description: 'every service of the killed launcher to stop' },
    );
  } finally {
    // Whatever is left (on failure) goes with the test.
    for (const pid of processesNaming(dataDir)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 240_000);
