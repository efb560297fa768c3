/**
 * The `payouts` command against the real stack (engine API, worker, Temporal, sandbox): what a person
 * sees and the exit code, for a watched CSV with a failure, a status, a refused file, a terminal's
 * redraw, and an engine that is not there.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { freePort } from '../../src/net/free-port';
import { runPayoutsCli, type CliIo } from '../../src/cli/payouts-cli';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';

let stack: EngineHarness;
const folder = mkdtempSync(path.join(os.tmpdir(), 'payouts-cli-'));

beforeAll(async () => {
  stack = await startEngineHarness({ SANDBOX_SETTLE_MS: '50' });
}, 120_000);
afterAll(() => stack?.close());

function cliEnv(url = stack.apiUrl): Record<string, string> {
  return { PAYOUTS_API_URL: url, PAYOUTS_API_KEY: stack.config.ENGINE_API_KEYS[0]?.secret ?? '' };
}

function io(env: Record<string, string>, tty = false) {
  let stdout = '';
  let stderr = '';
  const value: CliIo = {
    env,
    stdout: { write: (text: string) => (stdout += text), isTTY: tty, columns: 120 },
    stderr: { write: (text: string) => (stderr += text) },
    readFile: (file) => readFile(file),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  return { io: value, output: () => ({ stdout, stderr }) };
}

function csvFile(name: string, rows: string[]): string {
  const file = path.join(folder, name);
  writeFileSync(file, ['externalId,amount,pixKey,keyType,description', ...rows].join('\n'));
  return file;
}

function runBin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'payouts.js'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('`--watch` on a batch whose payout stays at the provider stops counting a time left and says what it waits for', async () => {
  const prefix = `cli-stuck-${randomUUID().slice(0, 6)}`;
  // An amount ending in .14 stays PROCESSING at the sandbox: its payout is in flight for good.
  const file = csvFile('stuck.csv', [`${prefix}-1,10.00,52998224725,CPF,`, `${prefix}-2,10.14,52998224725,CPF,`]);
  const watching = io(cliEnv());
  // The watcher's clock moves 5 s per refresh. It is stopped once it has shown the settled payout after a minute
  // of its clock (the batch never ends), however long the first payout takes on this machine.
  let clock = Date.now();
  let refreshes = 0;
  const startedAt = clock;
  const showsSettled = () => /completed 1 /.test(watching.output().stdout.trimEnd().split('\n').at(-1) ?? '');
  watching.io.now = () => clock;
  watching.io.sleep = async () => {
    refreshes += 1;
    if ((clock - startedAt >= 60_000 && showsSettled()) || refreshes > 300) throw new Error('stop watching');
    // Paces the refreshes; what the test waits for is the state above.
    await new Promise((resolve) => setTimeout(resolve, 300));
    clock += 5_000;
  };
  expect(await runPayoutsCli(['submit', file, '--batch-id', `${prefix}-batch`, '--watch'], watching.io)).toBe(1);
  const lines = watching.output().stdout.trimEnd().split('\n');
  expect(lines.at(-1)).toMatch(
    /1\/2 50% \| completed 1 · in flight 1 \| .* \| waiting for the provider on 1 payout \(nothing settled for \d+s\)$/,
  );
  expect(lines.at(-1)).not.toMatch(/left/);
}, 120_000);

test('`payouts submit file.csv --watch` follows the batch to the end, prints the failure, exits 2; `status` says the same', async () => {
  const prefix = `cli-${randomUUID().slice(0, 6)}`;
  const batchId = `${prefix}-batch`;
  const file = csvFile('payouts.csv', [
    `${prefix}-1,10.00,ana@example.com,EMAIL,March`,
    `${prefix}-2,20.50,52998224725,CPF,`,
    `${prefix}-3,7.13,+5511987654321,PHONE,`,
  ]);
  const watched = await runBin(['submit', file, '--batch-id', batchId, '--watch'], cliEnv());
  expect(watched.stderr).toBe('');
  expect(watched.code).toBe(2);
  const lines = watched.stdout.trimEnd().split('\n');
  expect(lines[0]).toBe(`Batch ${batchId} accepted: 3 payouts, R$ 37.63.`);
  expect(lines.some((line) => /3\/3 100% \| completed 2 · failed 1 \| paid R\$ 30\.50 of R\$ 37\.63/.test(line))).toBe(
    true,
  );
  expect(lines.slice(-3)).toEqual([
    'Failures:',
    expect.stringMatching(new RegExp(`^  FAILED +${prefix}-3 +R\\$ 7\\.13  Recipient account closed`)),
    '1 payout(s) failed or need review.',
  ]);

  const status = io(cliEnv());
  expect(await runPayoutsCli(['status', batchId], status.io)).toBe(2);
  expect(status.output().stdout).toMatch(
    /3\/3 100% \| completed 2 · failed 1 [\s\S]*Failures:[\s\S]*1 payout\(s\) failed or need review\.\n$/,
  );
}, 120_000);

test('on a terminal the progress line is redrawn in place until the batch is done; no failures exits 0', async () => {
  const prefix = `tty-${randomUUID().slice(0, 6)}`;
  const file = csvFile(
    'tty.csv',
    Array.from({ length: 30 }, (_, index) => `${prefix}-${index},${10 + index}.00,ana@example.com,EMAIL,`),
  );
  const terminal = io(cliEnv(), true);
  expect(await runPayoutsCli(['submit', file, '--watch'], terminal.io)).toBe(0);
  const CLEAR_TO_END = '\u001b[K';
  const redraws = terminal.output().stdout.split('\r').slice(1);
  expect(redraws.length).toBeGreaterThan(0);
  expect(redraws.every((line) => line.includes(CLEAR_TO_END))).toBe(true);
  expect(redraws[redraws.length - 1]).toMatch(/30\/30 100% \| completed 30 [\s\S]*No failures\.\n$/);
}, 120_000);

test('a refused file prints each bad row with its number and exits 1, and nothing starts', async () => {
  const prefix = `bad-${randomUUID().slice(0, 6)}`;
  const file = csvFile('bad.csv', [
    `${prefix}-1,10.00,ana@example.com,EMAIL,`,
    `${prefix}-2,10.001,ana@example.com,EMAIL,`,
    `${prefix}-3,5.00,123,CPF,`,
  ]);
  const refused = io(cliEnv());
  expect(await runPayoutsCli(['submit', file, '--batch-id', prefix, '--watch'], refused.io)).toBe(1);
  expect(refused.output().stderr).toContain('the engine refused: 422 BATCH_INVALID');
  expect(refused.output().stderr).toMatch(new RegExp(`row 2 \\(${prefix}-2\\): amount: `));
  expect(refused.output().stderr).toMatch(new RegExp(`row 3 \\(${prefix}-3\\): pixKey: `));
  expect((await stack.api('GET', `/v1/payout-batches/${prefix}`)).status).toBe(404);
});

test('usage errors, a wrong key and an engine that is not there exit 1 with a message', async () => {
  const usage = io(cliEnv());
  expect(await runPayoutsCli(['submit', path.join(folder, 'payouts.txt')], usage.io)).toBe(1);
  expect(await runPayoutsCli(['frobnicate', 'x'], usage.io)).toBe(1);
  expect(usage.output().stderr).toMatch(/must end in \.csv or \.json[\s\S]*unknown command "frobnicate"/);

  const wrongKey = io({ ...cliEnv(), PAYOUTS_API_KEY: 'not-a-key' });
  expect(await runPayoutsCli(['status', 'anything'], wrongKey.io)).toBe(1);
  expect(wrongKey.output().stderr).toContain('401');

  const nobody = `http://127.0.0.1:${await freePort()}`;
  const away = io(cliEnv(nobody));
  expect(await runPayoutsCli(['status', 'anything'], away.io)).toBe(1);
  expect(away.output().stderr).toContain(`cannot reach the engine API at ${nobody}`);
});
