import { parseBatchCsv, type CsvBatch } from '../../src/batches/batch-csv';
import { csvAmountToReais } from '../../src/batches/csv-amount';
import { csvRecords, type CsvRecord } from '../../src/batches/csv-records';
import { validateBatch } from '../../src/batches/batch-request';
import { storeCode } from '../helpers/payouts';
import { VALID_CPF } from './fixtures';

const ANY_SIZE = { maxItems: 1_000 };

function parsedOk(result: CsvBatch): Extract<CsvBatch, { ok: true }> {
  if (!result.ok) throw new Error(`expected the CSV to parse: ${JSON.stringify(result.issues)}`);
  return result;
}

test('RFC 4180: quoted commas, doubled quotes, line breaks inside quotes, CRLF, a BOM and a blank trailing line', async () => {
  const text =
    '\uFEFFexternalId,amount,pixKey,keyType,description\r\n' +
    `a-1,25,${VALID_CPF},CPF,"Rent, March"\r\n` +
    `a-2,25.5,${VALID_CPF},CPF,"The ""big"" one"\r\n` +
    `"a-3",0.07,${VALID_CPF},CPF,"two\r\nlines"\r\n` +
    `a-4,1000000.00,${VALID_CPF},CPF,\r\n` +
    '\r\n';
  const { items, rowIssues } = parsedOk(await parseBatchCsv(text, ANY_SIZE));
  expect(rowIssues).toEqual([]);
  expect(items).toEqual([
    { externalId: 'a-1', amount: 25, pixKey: VALID_CPF, keyType: 'CPF', description: 'Rent, March' },
    { externalId: 'a-2', amount: 25.5, pixKey: VALID_CPF, keyType: 'CPF', description: 'The "big" one' },
    { externalId: 'a-3', amount: 0.07, pixKey: VALID_CPF, keyType: 'CPF', description: 'two\r\nlines' },
    { externalId: 'a-4', amount: 1_000_000, pixKey: VALID_CPF, keyType: 'CPF' },
  ]);
});

test('LF line endings, columns in any order, description optional', async () => {
  const { items } = parsedOk(
    await parseBatchCsv(`keyType,pixKey,amount,externalId\nEMAIL,Ana@Example.com,10.10,e-1\n`, ANY_SIZE),
  );
  expect(items).toEqual([{ keyType: 'EMAIL', pixKey: 'Ana@Example.com', amount: 10.1, externalId: 'e-1' }]);
  const validation = validateBatch(items, () => new Set());
  expect(validation).toMatchObject({ ok: true, totalAmountCents: 1_010, items: [{ pixKey: 'ana@example.com' }] });
});

test("one file pays every rail: a row fills its method's columns, the others stay empty, and a BR Code with its own amount leaves amount empty", async () => {
  const withAmount = storeCode(4_250, 'T1');
  const text =
    'externalId,method,amount,pixKey,keyType,emv,email,wallet,network,description\n' +
    `m-1,,10,${VALID_CPF},CPF,,,,,rent\n` +
    `m-2,pix_copy_paste,,,,${withAmount},,,,\n` +
    'm-3,internal,5.5,,,,ana@example.com,,,\n' +
    'm-4,crypto,60,,,,,TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE,TRC20,\n';
  const { items, rowIssues } = parsedOk(await parseBatchCsv(text, ANY_SIZE));
  expect(rowIssues).toEqual([]);
  const validation = validateBatch(items, () => new Set());
  if (!validation.ok) throw new Error(JSON.stringify(validation.rows));
  expect(validation.totalAmountCents).toBe(1_000 + 4_250 + 550 + 6_000);
  expect(validation.items.map((item) => [item.externalId, item.method, item.amountCents])).toEqual([
    ['m-1', 'pix_key', 1_000],
    ['m-2', 'pix_copy_paste', 4_250],
    ['m-3', 'internal', 550],
    ['m-4', 'crypto', 6_000],
  ]);
});

test("a row missing its rail's field is reported by name, and an unknown method names the methods", async () => {
  const text = 'externalId,method,amount,pixKey,keyType,email\nr-1,internal,5,,,\nr-2,boleto,5,,,\n';
  const validation = validateBatch(parsedOk(await parseBatchCsv(text, ANY_SIZE)).items, () => new Set());
  expect(validation.ok).toBe(false);
  if (validation.ok) return;
  expect(validation.rows.map((row) => [row.index, row.field])).toEqual([
    [0, 'email'],
    [1, 'method'],
  ]);
  expect(validation.rows[1]?.message).toMatch(/pix_key.*pix_copy_paste.*internal.*crypto/);
});

test('amounts are read from their digits: a third decimal, a comma, an exponent or a sign is refused', () => {
  expect(csvAmountToReais('8.16')).toBe(8.16);
  expect(csvAmountToReais(' 0.29 ')).toBe(0.29);
  expect(csvAmountToReais('1.1')).toBe(1.1);
  for (const bad of ['8.165', '25,50', '1e3', '-5', '+5', '.5', '5.', '', 'abc', '0x10'])
    expect(csvAmountToReais(bad)).toBeUndefined();
});

test('bad rows are reported with their line, and the rows after them are still read', async () => {
  const text = [
    'externalId,amount,pixKey,keyType',
    `r-0,10.00,${VALID_CPF},CPF`,
    `r-1,10.005,${VALID_CPF},CPF`,
    `r-2,10.00,${VALID_CPF}`,
    `r-3,"10.00"x,${VALID_CPF},CPF`,
    `r-4,10.00,${VALID_CPF},CPF`,
    `r-5,10.00,"${VALID_CPF},CPF`,
    `r-6,10.00,${VALID_CPF},CPF`,
  ].join('\n');
  const { items, rowIssues } = parsedOk(await parseBatchCsv(text, ANY_SIZE));
  expect(items).toHaveLength(6);
  expect(rowIssues).toEqual([
    {
      index: 1,
      externalId: 'r-1',
      field: 'amount',
      message: expect.stringMatching(/at most 2 decimal places.*"10\.005"/),
    },
    { index: 2, field: '(row)', message: 'line 4: 3 field(s) where the header has 4' },
    { index: 3, field: '(row)', message: expect.stringMatching(/^line 5: unexpected text after a closing quote/) },
    { index: 5, field: '(row)', message: expect.stringMatching(/^line 7: a quoted field is not closed/) },
  ]);

  const validation = validateBatch(items, () => new Set(), { knownIssues: rowIssues });
  expect(validation.ok).toBe(false);
  if (validation.ok) return;
  // The CSV's own messages stand; the schema does not repeat them as "expected number".
  expect(validation.rows.map((row) => [row.index, row.field])).toEqual([
    [1, 'amount'],
    [2, '(row)'],
    [3, '(row)'],
    [5, '(row)'],
  ]);
});

test('a header with unknown, repeated or missing columns refuses the file, naming them', async () => {
  const result = await parseBatchCsv('externalId,pixKey,key_type,pixKey\nx,1,2,3\n', ANY_SIZE);
  expect(result).toEqual({
    ok: false,
    issues: [
      { path: 'header', message: 'repeated column(s): pixKey' },
      { path: 'header', message: expect.stringContaining('unknown column(s): "key_type"') },
      { path: 'header', message: 'missing column(s): amount' },
    ],
  });
  expect(await parseBatchCsv('', ANY_SIZE)).toMatchObject({
    ok: false,
    issues: [{ path: 'header', message: expect.stringMatching(/empty/) }],
  });
  expect(parsedOk(await parseBatchCsv('externalId,amount,pixKey,keyType\r\n', ANY_SIZE)).items).toEqual([]);
});

async function records(text: string): Promise<CsvRecord[]> {
  const all: CsvRecord[] = [];
  for await (const record of csvRecords(Buffer.from(text), ',')) all.push(record);
  return all;
}

test('a quote inside an unquoted field is an error of that line', async () => {
  expect(await records('a,b"c,d\nx,y,z')).toEqual([
    { line: 1, error: expect.stringMatching(/^line 1: a quote inside an unquoted field/) },
    { line: 2, fields: ['x', 'y', 'z'] },
  ]);
  expect(await records('"a\nb",c\n"d"\r"e"')).toEqual([
    { line: 1, fields: ['a\nb', 'c'] },
    { line: 3, fields: ['d'] },
    { line: 4, fields: ['e'] },
  ]);
});

test('rows are read up to the limit and no further: a file far over it costs no more than one just over it', async () => {
  const rows = Array.from({ length: 2_500 }, (_, index) => `m-${index},1.00,${VALID_CPF},CPF`);
  const text = ['externalId,amount,pixKey,keyType', ...rows, 'this line is never read: "'].join('\n');
  const { items, rowIssues } = parsedOk(await parseBatchCsv(text, { maxItems: 2_001 }));
  expect(items).toHaveLength(2_001);
  expect(items[2_000]).toEqual({ externalId: 'm-2000', amount: 1, pixKey: VALID_CPF, keyType: 'CPF' });
  expect(rowIssues).toEqual([]);
  expect(parsedOk(await parseBatchCsv(text, { maxItems: 2_501 })).rowIssues).toEqual([
    { index: 2_500, field: '(row)', message: expect.stringMatching(/line 2502: a quote/) },
  ]);
});
