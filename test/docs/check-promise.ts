/**
 * Run by the documentation examples' shell (test/docs/readme-examples.test.ts) right after a command whose
 * comment promises an answer: checks the command's HTTP answer, as the `curl` wrapper recorded it, against
 * the promise. An answer that may still change (a GET of an operation that is settling) is asked again
 * until it holds or 30 s pass, as a reader would ask again a moment later. Exit 1 says what differed.
 * Usage: check-promise <calls dir> <calls before the command> <calls after> <promises.json> <promise id>
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { jsonPromiseHolds } from './json-promise';
import type { ExampleCommand, Promised } from './shell-examples';

const SETTLE_DEADLINE_MS = 30_000;
const CHANGING_OPTIONS = new Set([
  '-d',
  '--data',
  '--data-binary',
  '--data-raw',
  '--data-urlencode',
  '-F',
  '--form',
  '-T',
  '--upload-file',
]);

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function main(): number {
  const [callsDir = '', before = '0', after = '0', promisesFile = '', id = ''] = process.argv.slice(2);
  const { where, promise } =
    (JSON.parse(readFileSync(promisesFile, 'utf8')) as Record<string, ExampleCommand & { promise: Promised }>)[id] ??
    {};
  if (!where || !promise) throw new Error(`no promise ${id}`);
  if (Number(after) === Number(before)) {
    process.stderr.write(`${where}: its comment promises an HTTP answer, but it made no HTTP call\n`);
    return 1;
  }
  const dir = path.join(callsDir, after);
  const args = readFileSync(path.join(dir, 'args')).toString('utf8').split('\0').slice(0, -1);
  const method = args[args.indexOf('-X') + 1] ?? args[args.indexOf('--request') + 1];
  const repeatable = (!args.includes('-X') && !args.includes('--request')) || method === 'GET';
  const repeatableGet = repeatable && !args.some((arg) => CHANGING_OPTIONS.has(arg));
  const deadline = Date.now() + SETTLE_DEADLINE_MS;
  for (;;) {
    const status = Number(readFileSync(path.join(dir, 'status'), 'utf8'));
    const body = existsSync(path.join(dir, 'body')) ? readFileSync(path.join(dir, 'body'), 'utf8') : '';
    let parsed: unknown;
    try {
      parsed = body ? JSON.parse(body) : undefined;
    } catch {
      parsed = undefined;
    }
    if (status === promise.status && (promise.body === undefined || jsonPromiseHolds(promise.body, parsed))) return 0;
    if (!repeatableGet || Date.now() > deadline) {
      process.stderr.write(
        `${where}: promised ${promise.status}${promise.body === undefined ? '' : ` ${JSON.stringify(promise.body)}`}\n  answered ${status} ${body}\n`,
      );
      return 1;
    }
    sleep(500);
    const again = execFileSync('curl', [...args, '-o', path.join(dir, 'body'), '-w', '%{http_code}'], {
      encoding: 'utf8',
    });
    writeFileSync(path.join(dir, 'status'), again);
  }
}

process.exitCode = main();
