/**
 * Batches as Brazilian spreadsheets save them, read without the stack: the encoding from the bytes (a
 * real Windows-1252 file and a "CSV UTF-8" file with its BOM, test/fixtures/excel-pt-br-*.csv), the
 * delimiter from the header, decimal commas in `;` files only, and the hints a spreadsheet's habits need.
 */
import { readFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import iconv from 'iconv-lite';
import { parseBatchCsv, type CsvBatch } from '../../src/batches/batch-csv';
import { commaAmountToReais, readCsvAmount } from '../../src/batches/csv-amount';
import { decodeCsvBody, type DecodedCsv } from '../../src/batches/csv-encoding';
import { validateBatch } from '../../src/batches/batch-request';

const ANY_SIZE = { maxItems: 1_000 };
const fixture = (name: string): Buffer => readFileSync(path.join(__dirname, '..', 'fixtures', name));
const WINDOWS_1252 = fixture('excel-pt-br-windows-1252.csv');
const UTF8_WITH_BOM = fixture('excel-pt-br-utf8-bom.csv');

/** What Excel pt-BR's file holds, whichever of its two CSV formats saved it. */
const EXCEL_ITEMS = [
  { externalId: 'excel-1', amount: 25.5, pixKey: '52998224725', keyType: 'CPF', description: 'Aluguel de março' },
  {
    externalId: 'excel-2',
    amount: 1_234.56,
    pixKey: 'ana@example.com',
    keyType: 'EMAIL',
    description: 'Comissão São João',
  },
];

function decoded(result: DecodedCsv): Extract<DecodedCsv, { ok: true }> {
  if (!result.ok) throw new Error(`expected the bytes to decode: ${result.message}`);
  return result;
}

function parsedOk(result: CsvBatch): Extract<CsvBatch, { ok: true }> {
  if (!result.ok) throw new Error(`expected the CSV to parse: ${JSON.stringify(result.issues)}`);
  return result;
}

async function itemsOf(bytes: Buffer, charset?: string): Promise<unknown[]> {
  const { items, rowIssues } = parsedOk(
    await parseBatchCsv(decoded(await decodeCsvBody(bytes, charset)).utf8, ANY_SIZE),
  );
  expect(rowIssues).toEqual([]);
  return items;
}

test('the Windows-1252 fixture is what Excel pt-BR saves as "CSV": ç and ã as single bytes, not UTF-8', () => {
  expect(WINDOWS_1252.includes(0xe7)).toBe(true); // ç
  expect(WINDOWS_1252.includes(0xe3)).toBe(true); // ã
  expect(isUtf8(WINDOWS_1252)).toBe(false);
});

test('a Windows-1252 file sent without a charset is read as Windows-1252: accents intact, ";" cells, decimal commas, the empty ";;;;" row skipped', async () => {
  expect(decoded(await decodeCsvBody(WINDOWS_1252, undefined)).encoding).toBe('windows-1252');
  expect(await itemsOf(WINDOWS_1252)).toEqual(EXCEL_ITEMS);
  // Declared, it reads the same; so does ISO-8859-1, which browsers read as Windows-1252 too.
  expect(await itemsOf(WINDOWS_1252, 'windows-1252')).toEqual(EXCEL_ITEMS);
  expect(await itemsOf(WINDOWS_1252, 'ISO-8859-1')).toEqual(EXCEL_ITEMS);
});

test('a "CSV UTF-8" file (with its BOM) and a UTF-8 file without BOM read as UTF-8, the same items', async () => {
  expect(decoded(await decodeCsvBody(UTF8_WITH_BOM, undefined)).encoding).toBe('UTF-8');
  expect(await itemsOf(UTF8_WITH_BOM)).toEqual(EXCEL_ITEMS);
  const withoutBom = UTF8_WITH_BOM.subarray(3);
  expect(decoded(await decodeCsvBody(withoutBom, undefined)).encoding).toBe('UTF-8');
  expect(await itemsOf(withoutBom, 'utf-8')).toEqual(EXCEL_ITEMS);
});

test('a declared charset wins: Windows-1252 bytes declared UTF-8 are refused, naming the line and the charset to declare, never read as U+FFFD', async () => {
  expect(await decodeCsvBody(WINDOWS_1252, 'utf-8')).toEqual({
    ok: false,
    message: expect.stringMatching(/declares charset=utf-8 but line 2 is not UTF-8.*charset=windows-1252/),
  });
  expect(await decodeCsvBody(UTF8_WITH_BOM, 'windows-1252')).toEqual({
    ok: false,
    message: expect.stringMatching(/byte order mark but declares charset=windows-1252/),
  });
  expect(await decodeCsvBody(UTF8_WITH_BOM, 'shift_jis')).toEqual({
    ok: false,
    message: expect.stringMatching(/^the declared charset is not read; declare charset=utf-8 or charset=windows-1252/),
  });
  expect(await decodeCsvBody(UTF8_WITH_BOM, 'constructor')).toMatchObject({ ok: false });
});

test('bytes that are neither UTF-8 nor Windows-1252 are refused with their line: UTF-16, a NUL, an undefined Windows-1252 byte, a broken UTF-8 file with a BOM', async () => {
  const utf16 = iconv.encode('externalId,amount\r\nx,1\r\n', 'utf-16le', { addBOM: true });
  expect(await decodeCsvBody(utf16, undefined)).toEqual({ ok: false, message: expect.stringMatching(/UTF-16/) });
  expect(await decodeCsvBody(Buffer.from('externalId,amount\nx,1\0\n'), undefined)).toEqual({
    ok: false,
    message: expect.stringMatching(/^line 2 holds a NUL byte/),
  });
  const undefinedByte = Buffer.concat([
    Buffer.from('externalId,amount,description\nx,1,a'),
    Buffer.from([0x81]),
    Buffer.from('\n'),
  ]);
  expect(await decodeCsvBody(undefinedByte, undefined)).toEqual({
    ok: false,
    message: expect.stringMatching(/^byte 0x81 on line 2 is neither UTF-8 nor Windows-1252/),
  });
  const brokenAfterBom = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('a\nb\n'),
    Buffer.from([0xe7]),
    Buffer.from('\n'),
  ]);
  expect(await decodeCsvBody(brokenAfterBom, undefined)).toEqual({
    ok: false,
    message: expect.stringMatching(/byte order mark but line 3 is not UTF-8/),
  });
});

test('the delimiter is the header\'s: a ";" file is read by its column names, and unknown names are named one by one', async () => {
  expect(
    parsedOk(await parseBatchCsv('externalId;amount;pixKey;keyType\na-1;"25,50";ana@example.com;EMAIL\n', ANY_SIZE))
      .items,
  ).toEqual([{ externalId: 'a-1', amount: 25.5, pixKey: 'ana@example.com', keyType: 'EMAIL' }]);
  // A description may hold the other delimiter, quoted or not.
  expect(
    parsedOk(
      await parseBatchCsv(
        'externalId;amount;pixKey;keyType;description\na-1;1;ana@example.com;EMAIL;"rent; March, 2026"\n',
        ANY_SIZE,
      ),
    ).items,
  ).toEqual([
    { externalId: 'a-1', amount: 1, pixKey: 'ana@example.com', keyType: 'EMAIL', description: 'rent; March, 2026' },
  ]);
  expect(await parseBatchCsv('id;valor\n1;2\n', ANY_SIZE)).toEqual({
    ok: false,
    issues: [
      { path: 'header', message: expect.stringMatching(/^unknown column\(s\): "id", "valor"; the columns are/) },
      { path: 'header', message: 'missing column(s): externalId, amount' },
    ],
  });
  expect(await parseBatchCsv('externalId\tamount\nx\t1\n', ANY_SIZE)).toMatchObject({
    ok: false,
    issues: [
      { message: expect.stringMatching(/separated by "," or ";"$/) },
      { message: 'missing column(s): externalId, amount' },
    ],
  });
});

test('decimal commas are read in ";" files only; thousands dots only in threes and before a decimal comma; what could be read two ways is refused with the form to write', () => {
  for (const [text, reais] of [
    ['25,50', 25.5],
    ['25,5', 25.5],
    ['25', 25],
    [' 0,07 ', 0.07],
    ['1.234,56', 1_234.56],
    ['1.000.000,00', 1_000_000],
  ] as const) {
    expect([text, commaAmountToReais(text)]).toEqual([text, reais]);
  }
  for (const bad of ['25,505', '12.34,56', '1.23,4', '1.234', '25.50', '-5', 'R$ 25,50', ',5', '25,', '1 234,56'])
    expect([bad, commaAmountToReais(bad)]).toEqual([bad, undefined]);
  expect(readCsvAmount('25.50', ';')).toEqual({
    ok: false,
    message: expect.stringMatching(/decimal separator is a comma: write 25,50/),
  });
  expect(readCsvAmount('1.234', ';')).toEqual({
    ok: false,
    message: expect.stringMatching(/could be thousands or decimals: write 1234, 1.234,00 or 1,23/),
  });
  // A "," file keeps the dot: its comma is the delimiter, a quoted "25,50" is refused as before.
  expect(readCsvAmount('25,50', ',')).toEqual({ ok: false, message: expect.stringMatching(/with a dot/) });
  expect(readCsvAmount('25.50', ',')).toEqual({ ok: true, reais: 25.5 });
});

test('a CPF whose leading zero a spreadsheet dropped gets a hint in its row, saying whether the zero fixes it, without repeating the key', async () => {
  const csv =
    'externalId;amount;pixKey;keyType\nz-1;10,00;1234567890;CPF\nz-2;10,00;1234567891;CPF\nz-3;10,00;123456789;CPF\n';
  const { items, rowIssues } = parsedOk(await parseBatchCsv(csv, ANY_SIZE));
  const validation = validateBatch(items, () => new Set(), { knownIssues: rowIssues });
  if (validation.ok) throw new Error('expected the rows to be refused');
  expect(validation.rows).toEqual([
    {
      index: 0,
      externalId: 'z-1',
      field: 'pixKey',
      message: expect.stringMatching(
        /^CPF must have 11 digits.*10 digits: a spreadsheet drops a CPF's leading zero.*with a leading 0 its check digits match\)$/,
      ),
    },
    {
      index: 1,
      externalId: 'z-2',
      field: 'pixKey',
      message: expect.stringMatching(/leading zero.*a leading 0 would not make its check digits match either/),
    },
    // Nine digits is no spreadsheet's doing: no hint.
    {
      index: 2,
      externalId: 'z-3',
      field: 'pixKey',
      message: 'CPF must have 11 digits, with or without the mask 123.456.789-09',
    },
  ]);
  expect(JSON.stringify(validation.rows)).not.toContain('01234567890');
});
