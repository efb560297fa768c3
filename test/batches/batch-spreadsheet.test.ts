/**
 * Batches as Brazilian spreadsheets save them, through the real stack (engine API over HTTP, Temporal,
 * worker, sandbox over HTTP): Excel pt-BR's file sent by `payouts submit` as it is, its accents on the
 * recipient's statement; a charset that does not fit the bytes refused; a spreadsheet's habits named in
 * the rows; and the items' outcomes exported as a CSV that Excel pt-BR opens, streamed, formula-safe.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { runPayoutsCli, type CliIo } from '../../src/cli/payouts-cli';
import { pollUntil } from '../../src/util/poll';
import { batchWorkflowId } from '../../src/contracts/batch';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { healthDuring } from './health-during';
import { waitBatchDone } from '../helpers/batches';

let stack: EngineHarness;
const folder = mkdtempSync(path.join(os.tmpdir(), 'batch-spreadsheet-'));

beforeAll(async () => {
  stack = await startEngineHarness({ SANDBOX_SETTLE_MS: '50' });
}, 120_000);
afterAll(async () => {
  await stack?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The real Windows-1252 file of Excel pt-BR, its externalIds (`excel-1`, `excel-2`: plain ASCII) made this run's own. */
function excelFile(prefix: string): Buffer {
  const bytes = readFileSync(path.join(__dirname, '..', 'fixtures', 'excel-pt-br-windows-1252.csv'));
  return Buffer.from(bytes.toString('latin1').replace(/excel-/g, `${prefix}-`), 'latin1');
}

const auth = () => ({ authorization: `Bearer ${stack.config.ENGINE_API_KEYS[0]?.secret}` });

async function postCsv(
  batchId: string,
  body: Buffer | string,
  contentType = 'text/csv',
): Promise<{
  status: number;
  body: { code?: string; message?: string; rows?: { index: number; field: string; message: string }[] };
}> {
  const response = await fetch(`${stack.apiUrl}/v1/payout-batches?batchId=${batchId}`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as never };
}

const waitDone = (batchId: string) => waitBatchDone(stack, batchId, { finished: (summary) => summary.done });

/** The description the provider keeps for the payout's withdrawal: what goes on the recipient's statement. */
async function descriptionAtProvider(externalId: string): Promise<unknown> {
  const payout = await stack.api<PayoutResponse>('GET', `/v1/payouts/${externalId}`);
  const answer = await stack.admin<{ operation: { details: { description?: string } } }>(
    'GET',
    `/sandbox/operations/${payout.body.providerTransactionId ?? 'none'}`,
  );
  return answer.body.operation.details.description;
}

test('Excel pt-BR\'s file (Windows-1252, ";", 25,50 and 1.234,56) sent by `payouts submit` as it is: paid, with "março" and "São João" intact at the provider', async () => {
  const prefix = `xl-${randomUUID().slice(0, 6)}`;
  const file = path.join(folder, `${prefix}.csv`);
  writeFileSync(file, excelFile(prefix));
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: { PAYOUTS_API_URL: stack.apiUrl, PAYOUTS_API_KEY: stack.config.ENGINE_API_KEYS[0]?.secret ?? '' },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readFile: (name) => readFile(name),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  expect([await runPayoutsCli(['submit', file, '--batch-id', prefix, '--watch'], io), stderr]).toEqual([0, '']);
  expect(stdout).toContain('2 payouts');
  const done = await waitDone(prefix);
  expect(done.counts.COMPLETED).toEqual({ count: 2, amount: 1_260.06 });
  expect(await descriptionAtProvider(`${prefix}-1`)).toBe('Aluguel de março');
  expect(await descriptionAtProvider(`${prefix}-2`)).toBe('Comissão São João');
});
test('a declared charset wins: the same bytes declared UTF-8 are refused 415 naming the charset to declare; declared Windows-1252 they are accepted; an unknown charset is 415', async () => {
  const prefix = `cs-${randomUUID().slice(0, 6)}`;
  const wrong = await postCsv(prefix, excelFile(prefix), 'text/csv; charset=utf-8');
  expect(wrong.status).toBe(415);
  expect(wrong.body).toMatchObject({
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: expect.stringMatching(/line 2 is not UTF-8.*charset=windows-1252.*Nothing was stored/),
  });
  expect((await stack.api('GET', `/v1/payout-batches/${prefix}`)).status).toBe(404);
  expect((await postCsv(prefix, excelFile(prefix), 'text/csv; charset=shift_jis')).status).toBe(415);
  const right = await postCsv(prefix, excelFile(prefix), 'text/csv; charset=windows-1252');
  expect(right).toMatchObject({ status: 202, body: { total: 2 } });
  await waitDone(prefix);
  expect(await descriptionAtProvider(`${prefix}-2`)).toBe('Comissão São João');
});
test('a ";" file\'s bad rows are named with what a spreadsheet did: a CPF missing its leading zero, a dot where the comma goes; nothing starts', async () => {
  const batchId = `hint-${randomUUID().slice(0, 6)}`;
  const csv = `externalId;amount;pixKey;keyType\r\n${batchId}-1;10,00;1234567890;CPF\r\n${batchId}-2;25.50;ana@example.com;EMAIL\r\n`;
  const answer = await postCsv(batchId, csv);
  expect(answer.status).toBe(422);
  expect(answer.body.rows).toEqual([
    expect.objectContaining({
      index: 0,
      field: 'pixKey',
      message: expect.stringMatching(
        /10 digits: a spreadsheet drops a CPF's leading zero.*with a leading 0 its check digits match/,
      ),
    }),
    expect.objectContaining({
      index: 1,
      field: 'amount',
      message: expect.stringMatching(/decimal separator is a comma: write 25,50/),
    }),
  ]);
  expect((await stack.api('GET', `/v1/payout-batches/${batchId}`)).status).toBe(404);
});

test("GET …/items.csv exports every item's outcome as Excel pt-BR opens it; a provider's reason that looks like a formula stays text; same key as the other routes", async () => {
  const batchId = `exp-${randomUUID().slice(0, 6)}`;
  const items = [
    { externalId: `${batchId}-paid`, amount: 25.5, pixKey: 'ana@example.com', keyType: 'EMAIL' },
    // .14 stays PROCESSING at the sandbox until an outcome is forced below.
    { externalId: `${batchId}-held`, amount: 10.14, pixKey: 'bia@example.com', keyType: 'EMAIL' },
  ];
  expect((await stack.api('POST', '/v1/payout-batches', { batchId, items })).status).toBe(202);
  const held = await pollUntil(
    async () => (await stack.api<PayoutResponse>('GET', `/v1/payouts/${batchId}-held`)).body.providerTransactionId,
    { timeoutMs: 30_000, intervalMs: 200, description: 'the held payout to reach the provider' },
  );
  const formula = '=HYPERLINK("http://attacker.example","Recipient account closed")';
  expect(
    (await stack.admin('POST', `/sandbox/operations/${held}/outcome`, { status: 'FAILED', reason: formula })).status,
  ).toBe(200);
  await waitDone(batchId);

  const response = await fetch(`${stack.apiUrl}/v1/payout-batches/${batchId}/items.csv`, { headers: auth() });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${batchId}-items.csv"`);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString('utf8');
  const rows = parse<Record<string, string>>(text, { delimiter: ';', columns: true });
  expect(rows).toEqual([
    {
      seq: '1',
      externalId: `${batchId}-paid`,
      method: 'pix_key',
      amount: '25,50',
      status: 'COMPLETED',
      fee: expect.stringMatching(/^\d+,\d\d$/),
      failureReason: '',
    },
    {
      seq: '2',
      externalId: `${batchId}-held`,
      method: 'pix_key',
      amount: '10,14',
      status: 'FAILED',
      fee: expect.any(String),
      failureReason: `'${formula}`,
    },
  ]);
  expect(text).not.toMatch(/ana@example|bia@example/);

  expect((await fetch(`${stack.apiUrl}/v1/payout-batches/${batchId}/items.csv`)).status).toBe(401);
  const unknown = await fetch(`${stack.apiUrl}/v1/payout-batches/no-such-${batchId}/items.csv`, { headers: auth() });
  expect([unknown.status, ((await unknown.json()) as { code: string }).code]).toEqual([404, 'BATCH_NOT_FOUND']);
}, 600_000);

test('the export of 50,000 items is streamed (chunked, no length known up front), every item once and in order, while the API keeps answering', async () => {
  // Accepted, never paid: the export reads the store, not the payouts.
  await stack.stopWorker();
  const batchId = `big-exp-${randomUUID().slice(0, 6)}`;
  try {
    const items = Array.from({ length: 50_000 }, (_, index) => ({
      externalId: `${batchId}-${index}`,
      amount: 1 + (index % 50),
      pixKey: 'ana@example.com',
      keyType: 'EMAIL',
    }));
    expect((await stack.api('POST', '/v1/payout-batches', { batchId, items })).status).toBe(202);
    await stack.temporal.client.workflow
      .getHandle(batchWorkflowId(batchId))
      .terminate('test: accepted, not to be paid');
    const download = fetch(`${stack.apiUrl}/v1/payout-batches/${batchId}/items.csv`, { headers: auth() }).then(
      async (response) => ({
        headers: response.headers,
        text: await response.text(),
      }),
    );
    const { result, healthAnswers, longestSilence } = await healthDuring(stack.apiUrl, download);
    expect(result.headers.get('transfer-encoding')).toBe('chunked');
    expect(result.headers.get('content-length')).toBeNull();
    const lines = result.text.split('\r\n').filter((line) => line !== '');
    expect(lines).toHaveLength(50_001);
    expect(lines.slice(1).map((line) => line.split(';')[1])).toEqual(items.map((item) => item.externalId));
    expect({ answered: healthAnswers > 0, longestSilenceUnderAQuarter: longestSilence < 0.25 }).toEqual({
      answered: true,
      longestSilenceUnderAQuarter: true,
    });
  } finally {
    await stack.startWorker();
  }
}, 180_000);
