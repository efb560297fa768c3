/**
 * The `payouts` command prints text that others wrote (provider reasons, the server's messages, field
 * names a file brought in): none of it may drive the terminal (escape sequences, carriage returns) or
 * reorder what a person reads (bidirectional overrides).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { renderFailure } from '../../src/cli/batch-progress';
import { runPayoutsCli, type CliIo } from '../../src/cli/payouts-cli';
import { startEngineApi, type EngineApi } from '../helpers/engine-api';

// Control (C0, DEL, C1) and bidirectional formatting characters.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;
const HOSTILE = 'closed\u001b[2J\u001b[31m\rOK \u202Edias 2 ni diap\u202C\u0085\u0007';

let api: EngineApi;
beforeAll(async () => {
  api = await startEngineApi();
});
afterAll(() => api?.close());

test('a failed item is listed without the control and bidirectional characters of its provider reason', () => {
  const line = renderFailure({
    seq: 1,
    externalId: 'order-1',
    method: 'pix_key',
    amount: 7.13,
    status: 'FAILED',
    failureReason: HOSTILE,
  });
  expect(line).not.toMatch(UNSAFE);
  expect(line).toMatch(/^ {2}FAILED +order-1 +R\$ 7\.13 {2}closed\[2J\[31m OK dias 2 ni diap$/);
});

test('a refused file prints the rows the server names without the characters a field name smuggled in', async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'cli-safety-'));
  const file = path.join(folder, 'batch.json');
  writeFileSync(
    file,
    JSON.stringify([{ externalId: 'row-1', amount: 10, pixKey: '52998224725', keyType: 'CPF', [HOSTILE]: 'x' }]),
  );
  let stderr = '';
  let stdout = '';
  const io: CliIo = {
    env: { PAYOUTS_API_URL: api.url, PAYOUTS_API_KEY: api.apiKey },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readFile: (name) => readFile(name),
    now: () => Date.now(),
    sleep: () => Promise.resolve(),
  };
  expect(await runPayoutsCli(['submit', file], io)).toBe(1);
  expect(stdout).toBe('');
  expect(stderr).toContain('the engine refused: 422 BATCH_INVALID');
  expect(stderr).toMatch(/row 1 \(row-1\): closed\[2J\[31m OK dias 2 ni diap/);
  // Line breaks are the command's own, one per message; nothing else of the forbidden sets.
  for (const line of stderr.split('\n')) expect(line).not.toMatch(UNSAFE);
});
