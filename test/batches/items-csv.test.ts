/**
 * The items export as a spreadsheet reads it: cells a spreadsheet would run as formulas are text, amounts
 * with a decimal comma, UTF-8 with a BOM and `;`; and 50,000 items of a real batch store written page by
 * page to a slow reader, never more than a few pages waiting in memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { batchRequestHash } from '../../src/batches/batch-request';
import { engineDatabasePath } from '../../src/db/database';
import { SqliteBatchStore } from '../../src/batches/sql-batch-store';
import { itemsCsvHeader, itemsCsvRows, spreadsheetCell, streamItemsCsv } from '../../src/batches/items-csv';
import { itemPages, type BatchItemView } from '../../src/batches/batch-store';
import { payoutRequests, TEST_KEY } from './fixtures';

const dir = mkdtempSync(path.join(os.tmpdir(), 'items-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a cell starting with =, +, -, @, a tab or a CR is made text with a leading quote; the delimiter, quotes and line breaks are quoted', () => {
  expect(spreadsheetCell('=HYPERLINK("http://x","click")')).toBe(`"'=HYPERLINK(""http://x"",""click"")"`);
  for (const start of ['+', '-', '@', '\t']) expect(spreadsheetCell(`${start}1+1`)).toBe(`'${start}1+1`);
  expect(spreadsheetCell('\r=1')).toBe(`"'\r=1"`);
  expect(spreadsheetCell('closed; by the bank')).toBe('"closed; by the bank"');
  expect(spreadsheetCell('a = b')).toBe('a = b');
  expect(spreadsheetCell('')).toBe('');
});

test('a page of items as Excel pt-BR reads it: BOM, ";", decimal commas, CRLF; a formula-looking failure reason stays text', () => {
  const items: BatchItemView[] = [
    { seq: 1, externalId: 'a-1', method: 'pix_key', amountCents: 2_550, state: 'COMPLETED', feeCents: 125 },
    {
      seq: 2,
      externalId: 'a-2',
      method: 'crypto',
      amountCents: 1_234_567,
      state: 'FAILED',
      feeCents: 0,
      failureReason: '=cmd|" /C calc"!A0',
    },
    { seq: 3, externalId: 'a-3', method: 'internal', amountCents: 5, state: 'PENDING' },
  ];
  const text = itemsCsvHeader() + itemsCsvRows(items);
  expect(text.startsWith('\uFEFFseq;externalId;method;amount;status;fee;failureReason\r\n')).toBe(true);
  expect(text.split('\r\n').slice(1)).toEqual([
    '1;a-1;pix_key;25,50;COMPLETED;1,25;',
    `2;a-2;crypto;12345,67;FAILED;0,00;"'=cmd|"" /C calc""!A0"`,
    '3;a-3;internal;0,05;PENDING;;',
    '',
  ]);
  // Read back as a CSV reader would, every cell is what was meant, the formula as text.
  const rows = parse<Record<string, string>>(text.slice(1), { delimiter: ';', columns: true });
  expect(rows[1]).toMatchObject({ failureReason: `'=cmd|" /C calc"!A0`, amount: '12345,67' });
});

test('50,000 items stream page by page to a slow reader: all of them in order, and never more than a few pages waiting in memory', async () => {
  const store = new SqliteBatchStore({ file: engineDatabasePath(dir), encryptionKey: TEST_KEY });
  try {
    const requests = payoutRequests(50_000, 'export');
    await store.createBatch({
      batchId: 'export',
      items: requests,
      requestHash: batchRequestHash(requests),
      createdAt: new Date(),
    });
    let pagesRead = 0;
    const counted = {
      listItems: (...args: Parameters<typeof store.listItems>) => ((pagesRead += 1), store.listItems(...args)),
    };
    const received: Buffer[] = [];
    let mostWaiting = 0;
    const reader = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk);
        mostWaiting = Math.max(mostWaiting, reader.writableLength);
        setImmediate(done);
      },
    });
    expect(await streamItemsCsv(itemPages(counted, 'export', 1_000), reader, { stallMs: 10_000 })).toBe(true);
    reader.end();
    const text = Buffer.concat(received).toString('utf8');
    const lines = text.split('\r\n').filter((line) => line !== '');
    expect(lines).toHaveLength(50_001);
    expect(lines[1]).toBe('1;export-1;pix_key;10,00;PENDING;;');
    expect(lines[50_000]).toBe('50000;export-50000;pix_key;509,99;PENDING;;');
    expect(pagesRead).toBe(50);
    // The whole export is about 2 MB; one page is about 40 kB. Built in memory first, it would all wait at once.
    expect(text.length).toBeGreaterThan(1_500_000);
    expect(mostWaiting).toBeLessThan(200_000);
  } finally {
    await store.close();
  }
}, 60_000);

test('a reader that goes away or takes nothing past the stall limit ends the export: no further page is read', async () => {
  let pagesRead = 0;
  function* endless() {
    for (;;) {
      pagesRead += 1;
      yield [
        {
          seq: pagesRead,
          externalId: `x-${pagesRead}`,
          method: 'pix_key' as const,
          amountCents: 100,
          state: 'PENDING' as const,
        },
      ];
    }
  }
  const stalled = new Writable({ highWaterMark: 16, write: () => undefined });
  expect(await streamItemsCsv(Readable.from(endless()), stalled, { stallMs: 200 })).toBe(false);
  expect(stalled.destroyed).toBe(true);
  const leaving = new Writable({ highWaterMark: 16, write: () => undefined });
  const exported = streamItemsCsv(Readable.from(endless()), leaving, { stallMs: 60_000 });
  leaving.destroy();
  expect(await exported).toBe(false);
  expect(pagesRead).toBe(0);
});
