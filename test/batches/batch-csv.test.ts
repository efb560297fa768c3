import { csvAmountToReais, parseBatchCsv, type CsvBatch } from '../../src/batches/batch-csv';
import { csvRecords } from '../../src/batches/csv-records';
import { validateBatch } from '../../src/batches/batch-request';
import { VALID_CPF } from './fixtures';

function parsedOk(result: CsvBatch): Extract<CsvBatch, { ok: true }> {
  if (!result.ok) throw new Error(`expected the CSV to parse: ${JSON.stringify(result.issues)}`);
  return result;
}

test('RFC 4180: quoted commas, doubled quotes, line breaks inside quotes, CRLF, a BOM and a blank trailing line', () => {
  const text = '\uFEFFexternalId,amount,pixKey,keyType,description\r\n' +
    `a-1,25,${VALID_CPF},CPF,"Rent, March"\r\n` +
    `a-2,25.5,${VALID_CPF},CPF,"The ""big"" one"\r\n` +
    `"a-3",0.07,${VALID_CPF},CPF,"two\r\nlines"\r\n` +
    `a-4,1000000.00,${VALID_CPF},CPF,\r\n` +
    '\r\n';
  const { items, rowIssues } = parsedOk(parseBatchCsv(text));
  expect(rowIssues).toEqual([]);
  expect(items).toEqual([
    { externalId: 'a-1', amount: 25, pixKey: VALID_CPF, keyType: 'CPF', description: 'Rent, March' },
    { externalId: 'a-2', amount: 25.5, pixKey: VALID_CPF, keyType: 'CPF', description: 'The "big" one' },
    { externalId: 'a-3', amount: 0.07, pixKey: VALID_CPF, keyType: 'CPF', description: 'two\r\nlines' },
    { externalId: 'a-4', amount: 1_000_000, pixKey: VALID_CPF, keyType: 'CPF' },
  ]);
});

test('LF line endings, columns in any order, description optional', () => {
  const { items } = parsedOk(parseBatchCsv(`keyType,pixKey,amount,externalId\nEMAIL,Ana@Example.com,10.10,e-1\n`));
  expect(items).toEqual([{ keyType: 'EMAIL', pixKey: 'Ana@Example.com', amount: 10.1, externalId: 'e-1' }]);
  const validation = validateBatch(items, () => new Set());
  expect(validation).toMatchObject({ ok: true, totalAmountCents: 1_010, items: [{ pixKey: 'ana@example.com' }] });
});

test('amounts are read from their digits: a third decimal, a comma, an exponent or a sign is refused', () => {
  expect(csvAmountToReais('8.16')).toBe(8.16);
  expect(csvAmountToReais(' 0.29 ')).toBe(0.29);
  expect(csvAmountToReais('1.1')).toBe(1.1);
  for (const bad of ['8.165', '25,50', '1e3', '-5', '+5', '.5', '5.', '', 'abc', '0x10']) expect(csvAmountToReais(bad)).toBeUndefined();
});

test('bad rows are reported with their line, and the rows after them are still read', () => {
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
  const { items, rowIssues } = parsedOk(parseBatchCsv(text));
  expect(items).toHaveLength(6);
  expect(rowIssues).toEqual([
    { index: 1, externalId: 'r-1', field: 'amount', message: expect.stringMatching(/at most 2 decimal places.*"10\.005"/) },
    { index: 2, field: '(row)', message: 'line 4: 3 field(s) where the header has 4' },
    { index: 3, field: '(row)', message: expect.stringMatching(/^line 5: unexpected text after a closing quote/) },
    { index: 5, field: '(row)', message: expect.stringMatching(/^line 7: a quoted field is not closed/) },
  ]);

  const validation = validateBatch(items, () => new Set(), { knownIssues: rowIssues });
  expect(validation.ok).toBe(false);
  if (validation.ok) return;
  // The CSV's own messages stand; the schema does not repeat them as "expected number".
  expect(validation.rows.map((row) => [row.index, row.field])).toEqual([[1, 'amount'], [2, '(row)'], [3, '(row)'], [5, '(row)']]);
});

test('a header with unknown, repeated or missing columns refuses the file, naming them', () => {
  const result = parseBatchCsv('externalId,amount,pixKey,key_type,amount\nx,1,2,3,4\n');
  expect(result).toEqual({
    ok: false,
    issues: [
      { path: 'header', message: 'repeated column(s): amount' },
      { path: 'header', message: expect.stringContaining('unknown column(s): "key_type"') },
      { path: 'header', message: 'missing column(s): keyType' },
    ],
  });
  expect(parseBatchCsv('')).toMatchObject({ ok: false, issues: [{ path: 'header', message: expect.stringMatching(/empty/) }] });
  expect(parsedOk(parseBatchCsv('externalId,amount,pixKey,keyType\r\n')).items).toEqual([]);
});

test('a quote inside an unquoted field is an error of that line', () => {
  expect([...csvRecords('a,b"c,d\nx,y,z')]).toEqual([
    { line: 1, error: expect.stringMatching(/^line 1: a quote inside an unquoted field/) },
    { line: 2, fields: ['x', 'y', 'z'] },
  ]);
  expect([...csvRecords('"a\nb",c\n"d"\r"e"')]).toEqual([
    { line: 1, fields: ['a\nb', 'c'] },
    { line: 3, fields: ['d'] },
    { line: 4, fields: ['e'] },
  ]);
});
