/**
 * The README's quick start on a fresh machine, as a new user runs it: a clone of the committed HEAD, the
 * machine's own `node` (Debian's 20 here, not the pinned Node this test runs on) and no node_modules/.bin on
 * PATH, `npm install`, then `npm start`. A payout completes; then SIGINT, and in a second start SIGTERM, sent
 * to the `npm start` process alone (as `kill <pid>` from another terminal sends it, not to its group) stops
 * every service it started: npm exits 0, no port stays held, no process is left. One clone and one install
 * serve every case (the install: 2.5 to 4 minutes with npm's cache warm, as after `.ci/run`'s own install, on
 * 2 busy cores).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { dependencies } from '../../package.json';
import { PINNED_NODE_MAJOR } from '../../src/cli/pinned-node';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { hasExited } from '../../tools/stack/child-services';
import { temporalCliPath } from '../../tools/temporal/binaries';
import { httpCall } from '../helpers/http';
import { machineEnv, machineNode } from '../helpers/machine-node';
import { npmStart, portOpen, processesNaming } from '../helpers/npm-start';

const run = promisify(execFile);
const root = path.join(__dirname, '..', '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'fresh-machine-'));
const clone = path.join(work, 'payout-engine');
const machine = machineNode();
const env = {
  ...machineEnv(),
  // A shell that has `cd`-ed into the clone says so.
  PWD: clone,
  // The Temporal CLI `npm start` would install from PyPI on first use: this checkout's (`.ci/run` installs it).
  TEMPORAL_CLI_PATH: temporalCliPath(),
  // npm's cache is warm on a machine that has just installed: no metadata round trip per package.
  npm_config_prefer_offline: 'true',
};

beforeAll(async () => {
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  execFileSync('git', ['clone', '--quiet', '--no-checkout', root, clone]);
  execFileSync('git', ['checkout', '--quiet', head], { cwd: clone });
  await run('npm', ['install'], { cwd: clone, env, maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 });
}, 16 * 60_000);

afterAll(() => {
  // Whatever a failed case left running goes with the test.
  for (const pid of processesNaming(work)) process.kill(pid, 'SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

test(`npm install on the machine's Node ${machine.version} gives npm scripts the pinned Node ${dependencies.node} and leaves the clone as committed`, async () => {
  expect(execFileSync('git', ['status', '--porcelain'], { cwd: clone, encoding: 'utf8' })).toBe('');
  const { stdout } = await run('npm', ['exec', '--offline', '--', 'node', '--version'], { cwd: clone, env });
  expect(stdout.trim()).toBe(`v${dependencies.node}`);
});

const olderNode = Number(machine.version.split('.')[0]) < PINNED_NODE_MAJOR;
(olderNode ? test : test.skip)(
  `every entry point started by hand on Node ${machine.version} refuses in one line that says to start it through npm`,
  async () => {
    const entries = ['src/cli/api.ts', 'src/cli/worker.ts', 'sandbox/main.ts', 'tools/stack/start-stack.ts'].map(
      (file) => ['--import', 'tsx', file],
    );
    for (const args of [...entries, ['bin/payouts.js', 'status', 'b-1']]) {
      const refused = await run(machine.path, args, { cwd: clone, env }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      const lines = refused.stderr.split('\n');
      expect({ entry: args.join(' '), code: refused.code, lines: lines.length, line: lines[0] }).toEqual({
        entry: args.join(' '),
        code: 1,
        lines: 2,
        line: expect.stringMatching(
          /^This is Node .*Start it through npm .* npm scripts run on the Node \d+\.\d+\.\d+ that npm install put in node_modules\.$/,
        ) as unknown,
      });
    }
  },
  60_000,
);

/** `npm start` in the clone; `whileUp` runs against the stack, then `signal` goes to the npm process alone. */
async function startThenSignal(signal: NodeJS.Signals, whileUp: (engineUrl: string) => Promise<void>): Promise<void> {
  const dataDir = path.join(work, `data-${signal}`);
  const { child, ports } = await npmStart(dataDir, {}, { command: 'npm', args: ['start'], cwd: clone, env });
  try {
    await whileUp(`http://127.0.0.1:${ports.engine}`);
  } finally {
    child.kill(signal);
  }
  await pollUntil(() => (hasExited(child) ? true : undefined), {
    timeoutMs: 90_000,
    intervalMs: 200,
    description: `npm start to exit on ${signal}`,
  });
  expect({ code: child.exitCode, signal: child.signalCode }).toEqual({ code: 0, signal: null });
  for (const [name, port] of Object.entries(ports))
    expect({ name, open: await portOpen(port) }).toEqual({ name, open: false });
  // A service's esbuild helper goes once its service has gone, a moment after.
  await pollUntil(() => (processesNaming(dataDir).length === 0 ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 200,
    description: `every process of the stack in ${dataDir} to go`,
  });
}

const engine = (url: string, body?: unknown) =>
  httpCall<{ status: string }>(url, {
    headers: { authorization: 'Bearer dev-api-key' },
    ...(body === undefined ? {} : { body }),
  });

test("npm start: the README's payout completes, and SIGINT to the npm start process stops every service it started", async () => {
  await startThenSignal('SIGINT', async (engineUrl) => {
    const accepted = await engine(`${engineUrl}/v1/payouts`, {
      externalId: 'order-1001',
      amount: 25.0,
      pixKey: '52998224725',
      keyType: 'CPF',
    });
    expect({ status: accepted.status, body: accepted.body.status }).toEqual({ status: 202, body: 'RECEIVED' });
    const settled = await pollUntil(
      async () => {
        const { body } = await engine(`${engineUrl}/v1/payouts/order-1001`);
        if (!['RECEIVED', 'SUBMITTED', 'COMPLETED'].includes(body.status))
          throw new StopPolling(`the payout ended ${body.status}`);
        return body.status === 'COMPLETED' ? body.status : undefined;
      },
      // The banner comes once the API answers; the worker may still be bundling the workflows then.
      { timeoutMs: 120_000, intervalMs: 250, description: 'the payout to complete' },
    );
    expect(settled).toBe('COMPLETED');
  });
}, 300_000);

test('npm start again in the same clone, and SIGTERM to the npm start process stops every service it started', async () => {
  await startThenSignal('SIGTERM', async (engineUrl) => {
    expect((await engine(`${engineUrl}/healthz`)).status).toBe(200);
  });
}, 300_000);
