/**
 * The `payouts` command's reads against the real stack (engine API, worker, Temporal, sandbox), through the
 * client typed from the served document: `get`, `list` with its filters and cursor, `events`, and `--json`
 * on every subcommand, as a person and a script see them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runPayoutsCli, type CliIo } from '../../src/cli/payouts-cli';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, waitForPayout } from '../helpers/payouts';

let stack: EngineHarness;
const folder = mkdtempSync(path.join(os.tmpdir(), 'payouts-cli-reads-'));
const first = newExternalId('cli-first');
const second = newExternalId('cli-second');

beforeAll(async () => {
  stack = await startEngineHarness({ SANDBOX_SETTLE_MS: '50' });
  for (const [id, amount] of [
    [first, 25],
    [second, 12.5],
  ] as const) {
    expect(
      (await stack.api('POST', '/v1/payouts', { externalId: id, amount, pixKey: '52998224725', keyType: 'CPF' }))
        .status,
    ).toBe(202);
    await waitForPayout(stack, id, ['COMPLETED']);
  }
}, 120_000);
afterAll(() => stack?.close());

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: { PAYOUTS_API_URL: stack.apiUrl, PAYOUTS_API_KEY: stack.config.ENGINE_API_KEYS[0]?.secret ?? '' },
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text) },
    readFile: (file) => readFile(file),
    now: () => Date.now(),
    sleep: () => new Promise((resolve) => setTimeout(resolve, 50)),
  };
  const code = await runPayoutsCli(argv, io);
  return { code, stdout, stderr };
}

test('`payouts get` prints the payout with its masked key and its transitions; with --json, the engine’s answer', async () => {
  const read = await cli('get', first);
  expect(read.code).toBe(0);
  expect(read.stdout).toContain(
    `Payout ${first}: COMPLETED, pix_key, R$ 25.00, fee R$ 1.25, total R$ 26.25 to CPF ***.982.247-**`,
  );
  expect(read.stdout).toMatch(/RECEIVED -> SUBMITTED: provider answered/);
  expect(read.stdout).not.toContain('52998224725');

  const json = await cli('get', first, '--json');
  expect(json.code).toBe(0);
  expect(JSON.parse(json.stdout)).toMatchObject({
    externalId: first,
    status: 'COMPLETED',
    amount: 25,
    fee: 1.25,
    pixKey: '***.982.247-**',
    keyType: 'CPF',
  });

  const unknown = await cli('get', newExternalId('nobody'));
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('404 PAYOUT_NOT_FOUND');
});

test('`payouts list` pages newest first with its filters and --cursor; a bad filter is refused naming it', async () => {
  const page = await cli('list', '--status', 'COMPLETED', '--limit', '1');
  expect(page.code).toBe(0);
  expect(page.stdout).toContain(`${second}  COMPLETED  pix_key  R$ 12.50 (fee R$ 0.88) to CPF ***.982.247-**`);
  const cursor = /--cursor (\S+)/.exec(page.stdout)?.[1];
  expect(cursor).toBeDefined();

  const next = await cli('list', '--status', 'COMPLETED', '--limit', '1', '--cursor', cursor ?? '', '--json');
  expect(next.code).toBe(0);
  expect((JSON.parse(next.stdout) as { data: { externalId: string }[] }).data.map((item) => item.externalId)).toEqual([
    first,
  ]);

  const none = await cli(
    'list',
    '--status',
    'FAILED',
    '--created-from',
    '2026-01-01T00:00:00-03:00',
    '--method',
    'crypto',
  );
  expect(none).toMatchObject({ code: 0, stdout: 'No payouts.\n' });

  const refused = await cli('list', '--status', 'DONE', '--created-to', 'yesterday');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/bad filter:[\s\S]*status[\s\S]*createdTo/);
});

test('`payouts events` lists what was announced about the payout; --json gives the answer', async () => {
  const events = await cli('events', first);
  expect(events.code).toBe(0);
  expect(events.stdout).toMatch(/ payout\.completed {2}evt_[0-9a-f]{24}\n$/);
  const json = await cli('events', first, '--json');
  expect(JSON.parse(json.stdout)).toEqual({
    data: [
      expect.objectContaining({
        type: 'payout.completed',
        data: expect.objectContaining({ externalId: first, amount: 25 }),
      }),
    ],
  });
});

test('--json on submit, status and reconcile prints the engine’s answers, with the same exit codes', async () => {
  const file = path.join(folder, 'one.json');
  const batchId = newExternalId('cli-json');
  writeFileSync(
    file,
    JSON.stringify({
      batchId,
      items: [{ externalId: `${batchId}-1`, amount: 3, pixKey: '52998224725', keyType: 'CPF' }],
    }),
  );
  const submitted = await cli('submit', file, '--json');
  expect(submitted.code).toBe(0);
  expect(JSON.parse(submitted.stdout)).toMatchObject({ batchId, total: 1 });

  const watched = await cli('status', batchId, '--watch', '--json');
  expect(watched.code).toBe(0);
  expect(JSON.parse(watched.stdout)).toMatchObject({ summary: { batchId, done: true }, failures: [] });

  const reconciled = await cli('reconcile', first, '--json');
  expect(reconciled.code).toBe(0);
  expect(JSON.parse(reconciled.stdout)).toMatchObject({ externalId: first, status: 'COMPLETED' });
});
