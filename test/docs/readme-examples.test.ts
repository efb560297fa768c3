/**
 * The documentation is executed. Every block fenced `sh` of README.md, then of each file of docs/ by name
 * (test/docs/shell-examples.ts), runs in order, as written, in one shell, against a stack of its own
 * started the way `npm start` starts it (its defaults, but on free ports and in a data folder of its
 * own): the only change is the ports in the URLs. Each answer a comment promises is checked. A
 * documentation change that breaks an example fails here. The merchant's webhook receiver of
 * docs/merchant-events.md runs with the `standardwebhooks` package, registered on the stack: it must accept a real payout's event.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/net/free-port';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { merchantWebhookHeaders } from '../../src/merchant-events/merchant-webhook-signature';
import { newStandardWebhookSecret } from '../../src/merchant-events/standard-webhook-signature';
import { npmStart, type NpmStart, type StackPorts } from '../helpers/npm-start';
import { documentationExamples, shellBlocks, type ExampleCommand } from './shell-examples';

const root = path.join(__dirname, '..', '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'readme-examples-'));
const cwd = path.join(work, 'reader');
let ports: StackPorts;
let stack: NpmStart | undefined;

/** The URLs of `npm start`'s defaults, moved to this stack's ports. */
function onThisStack(text: string): string {
  return text
    .replace(/(127\.0\.0\.1|localhost):3000\b/g, `$1:${ports.engine}`)
    .replace(/(127\.0\.0\.1|localhost):4010\b/g, `$1:${ports.sandbox}`)
    .replace(/(127\.0\.0\.1|localhost):8233\b/g, `$1:${ports.ui}`)
    .replace(/(127\.0\.0\.1|localhost):7233\b/g, `$1:${ports.temporal}`);
}

/** A reader's folder: `npx payouts` finds the project's command there (and npm never goes to the registry). */
function readersFolder(): void {
  mkdirSync(path.join(cwd, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(path.join(cwd, 'package.json'), '{ "name": "readme-reader", "private": true }\n');
  symlinkSync(path.join(root, 'bin', 'payouts.js'), path.join(cwd, 'node_modules', '.bin', 'payouts'));
  for (const module of ['tsx', 'express', 'standardwebhooks'])
    symlinkSync(path.join(root, 'node_modules', module), path.join(cwd, 'node_modules', module));
}

beforeAll(async () => {
  readersFolder();
  stack = await npmStart(path.join(work, 'data'));
  ports = stack.ports;
}, 150_000);

afterAll(async () => {
  if (stack && stack.child.exitCode === null) {
    stack.child.kill('SIGINT');
    await stack.exited;
  }
  rmSync(work, { recursive: true, force: true });
}, 60_000);

/** Every HTTP call of the examples goes through this `curl`: it keeps each call's arguments, status and body. */
const PRELUDE = String.raw`set -e
__calls=0
curl() {
  __calls=$((__calls + 1))
  local dir="$EXAMPLE_CALLS/$__calls"
  mkdir -p "$dir"
  printf '%s\0' "$@" > "$dir/args"
  command curl "$@" -o "$dir/body" -w '%{http_code}' > "$dir/status"
  cat "$dir/body"
  echo
}
__expect() {
  node --import tsx "$EXAMPLE_CHECKER" "$EXAMPLE_CALLS" "$1" "$__calls" "$EXAMPLE_PROMISES" "$2"
}
`;

function script(commands: (ExampleCommand & { block: string })[]): {
  text: string;
  promises: Record<string, ExampleCommand>;
} {
  const promises: Record<string, ExampleCommand> = {};
  const lines = [PRELUDE];
  commands.forEach((command, index) => {
    lines.push(`printf '\\n### %s\\n' '${command.where}'`);
    if (command.promise) {
      // The URLs in a promised answer move with the stack's ports too.
      promises[String(index)] = {
        ...command,
        promise: JSON.parse(onThisStack(JSON.stringify(command.promise))) as NonNullable<ExampleCommand['promise']>,
      };
      lines.push('__before=$__calls', onThisStack(command.text), `__expect "$__before" ${index}`);
    } else lines.push(onThisStack(command.text));
  });
  return { text: `${lines.join('\n')}\n`, promises };
}

function runShell(text: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', ['-c', text], {
    cwd,
    env: { ...process.env, ...env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

test('the example reader: commands split as a shell reads them, promises read from their comments', () => {
  const [block] = shellBlocks(
    'X.md',
    [
      '```sh',
      'curl -s -X POST http://h/v1 \\',
      '  -d \'{"a":1,',
      '       "b":2}\'',
      '# 201 {"id":"we_…","events":[…]}',
      'curl -s http://h/v1/x   # 200 {"status":"PAID"}',
      "cat > f.csv <<'CSV'",
      'a,b # not a comment',
      'CSV',
      'echo done   # or something else',
      '```',
    ].join('\n'),
  );
  expect(block?.commands.map((command) => [command.where, command.promise])).toEqual([
    ['X.md:2', { status: 201, body: { id: 'we_…', events: '…' } }],
    ['X.md:6', { status: 200, body: { status: 'PAID' } }],
    ['X.md:7', undefined],
    ['X.md:10', undefined],
  ]);
  expect(block?.commands[2]?.text).toBe("cat > f.csv <<'CSV'\na,b # not a comment\nCSV");
});

test('every sh example of README.md and docs/ runs as written against npm start, and answers as its comments promise', async () => {
  const blocks = documentationExamples(root);
  const commands = blocks.flatMap((block) => block.commands.map((command) => ({ ...command, block: block.where })));
  expect(commands.filter((command) => command.promise).length).toBeGreaterThanOrEqual(10);
  const { text, promises } = script(commands);
  const callsDir = path.join(work, 'calls');
  const promisesFile = path.join(work, 'promises.json');
  mkdirSync(callsDir);
  writeFileSync(promisesFile, JSON.stringify(promises));
  const run = await runShell(text, {
    EXAMPLE_CALLS: callsDir,
    EXAMPLE_PROMISES: promisesFile,
    EXAMPLE_CHECKER: path.join(__dirname, 'check-promise.ts'),
  });
  expect({
    code: run.code,
    output:
      run.code === 0
        ? ''
        : `${run.output.slice(-6_000)}\n--- the stack's last output:\n${stack?.output().slice(-3_000) ?? ''}`,
  }).toEqual({ code: 0, output: '' });
}, 150_000);

/** The stack's API as a merchant calls it, with `npm start`'s key. */
async function engine<T>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
  const answer = await fetch(`http://127.0.0.1:${ports.engine}${url}`, {
    method,
    headers: {
      authorization: 'Bearer dev-api-key',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

interface Attempt {
  outcome: string;
  httpStatus?: number;
}
interface EventView {
  id: string;
  data: { externalId?: string };
  deliveries: { endpointId: string; attempts: Attempt[] }[];
}

/** The attempts to `endpointId` of the payout.completed event of `externalId`, once there is one. */
function attemptsFor(externalId: string, endpointId: string): Promise<Attempt[]> {
  return pollUntil(
    async () => {
      const page = await engine<{ data: { id: string }[] }>('GET', '/v1/events?type=payout.completed');
      for (const item of page.body.data) {
        const event = (await engine<EventView>('GET', `/v1/events/${item.id}`)).body;
        const attempts =
          event.data.externalId === externalId
            ? event.deliveries.find((delivery) => delivery.endpointId === endpointId)?.attempts
            : undefined;
        if (attempts && attempts.length > 0) return attempts;
      }
      return undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500, description: `a delivery of ${externalId}'s event to the README receiver` },
  );
}

test("the webhook receiver of docs/merchant-events.md, with the standardwebhooks package, accepts a real payout's event and refuses a forged one", async () => {
  const readme = readFileSync(path.join(root, 'docs', 'merchant-events.md'), 'utf8');
  const snippet = /```ts\n(import express[\s\S]*?)```/.exec(readme)?.[1];
  expect(snippet).toBeDefined();
  writeFileSync(path.join(cwd, 'hooks.ts'), snippet ?? '');
  const port = await freePort();
  // npm start allows receivers on this machine (WEBHOOK_ALLOW_LOOPBACK).
  const endpoint = await engine<{ id: string; secret: string; signatureScheme: string }>(
    'POST',
    '/v1/webhook-endpoints',
    { url: `http://127.0.0.1:${port}/hooks`, events: ['payout.completed'] },
  );
  expect([endpoint.status, endpoint.body.signatureScheme]).toEqual([201, 'standard-webhooks']);
  const receiver = spawn(process.execPath, ['--import', 'tsx', 'hooks.ts'], {
    cwd,
    env: { ...process.env, PORT: String(port), PAYOUTS_WEBHOOK_SECRET: endpoint.body.secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  receiver.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  receiver.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const body = JSON.stringify({
      id: 'evt_0123456789abcdef01234567',
      type: 'payout.completed',
      createdAt: new Date().toISOString(),
      data: { object: 'payout', externalId: 'order-1001' },
    });
    const send = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${port}/hooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    // Signed with another secret: what a forger without the endpoint's secret can send.
    const forged = merchantWebhookHeaders(
      'standard-webhooks',
      'evt_0123456789abcdef01234567',
      [newStandardWebhookSecret()],
      body,
      Math.floor(Date.now() / 1000),
    );
    const refused = await pollUntil(
      async () => {
        if (receiver.exitCode !== null) throw new StopPolling(`the receiver exited: ${output}`);
        const answer = await send(forged).catch(() => undefined);
        return answer && { status: answer.status, text: await answer.text() };
      },
      { timeoutMs: 30_000, intervalMs: 200, description: 'the README receiver to answer' },
    );
    expect(refused).toEqual({ status: 400, text: 'bad-signature' });

    const externalId = `readme-hook-${Date.now()}`;
    expect(
      (await engine('POST', '/v1/payouts', { externalId, amount: 12.5, pixKey: '52998224725', keyType: 'CPF' })).status,
    ).toBe(202);
    // The receiver answers 204 only to a request its library verified.
    const attempts = await attemptsFor(externalId, endpoint.body.id);
    expect({ attempts, output }).toEqual({
      attempts: [expect.objectContaining({ outcome: 'delivered', httpStatus: 204 })],
      output: '',
    });
  } finally {
    receiver.kill('SIGKILL');
    await engine('DELETE', `/v1/webhook-endpoints/${endpoint.body.id}`);
  }
}, 120_000);
