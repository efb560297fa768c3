/**
 * `npm run api` listens on loopback unless ENGINE_HOST says otherwise, and logs the address its socket
 * really bound: nothing on the machine's other interfaces reaches it by accident.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { freePort } from '../../src/net/free-port';
import { pollUntil, StopPolling } from '../../src/util/poll';

const root = path.join(__dirname, '..', '..');
const listeningSchema = z.object({ event: z.literal('api.listening'), address: z.string(), port: z.number() });
const running: { child: ChildProcess; dataDir: string }[] = [];

/** An address of this machine other than loopback, if it has one. */
const externalIpv4 = Object.values(os.networkInterfaces())
  .flat()
  .find((address) => address?.family === 'IPv4' && !address.internal)?.address;

async function startApi(env: Record<string, string> = {}): Promise<z.infer<typeof listeningSchema>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'engine-api-bind-'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/api.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      ENGINE_PORT: String(await freePort()),
      METRICS_PORT: String(await freePort()),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push({ child, dataDir });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return pollUntil(
    () => {
      if (child.exitCode !== null) throw new StopPolling(`the API exited: ${output}`);
      const line = output.split('\n').find((candidate) => candidate.includes('"api.listening"'));
      return line ? listeningSchema.parse(JSON.parse(line)) : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 100, description: 'the API to listen' },
  );
}

async function reachable(host: string, port: number): Promise<boolean> {
  try {
    return (await fetch(`http://${host}:${port}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

afterEach(async () => {
  for (const { child, dataDir } of running.splice(0)) {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('by default the engine API binds 127.0.0.1, logs it, and is not reachable on other interfaces', async () => {
  const listening = await startApi();
  expect(listening.address).toBe('127.0.0.1');
  expect(await reachable('127.0.0.1', listening.port)).toBe(true);
  if (externalIpv4) expect(await reachable(externalIpv4, listening.port)).toBe(false);
}, 90_000);

test('ENGINE_HOST=0.0.0.0 binds every interface, as in a container, and the log says so', async () => {
  const listening = await startApi({ ENGINE_HOST: '0.0.0.0' });
  expect(listening.address).toBe('0.0.0.0');
  if (externalIpv4) expect(await reachable(externalIpv4, listening.port)).toBe(true);
}, 90_000);
