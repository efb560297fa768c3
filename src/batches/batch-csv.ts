/**
 * A batch as `text/csv`: a header row naming the columns of a payout request, then one payout per
 * row. Rows become the same raw objects a JSON body carries, so one schema validates both. The delimiter
 * is the header's (`,`, or `;` as Excel pt-BR saves), and with it the amounts' decimal separator
 * (csv-amount.ts); a row's problems found here travel on as known issues to validateBatch.
 */
import type { FieldIssue, RowIssue } from '../validation/issues';
import { readCsvAmount } from './csv-amount';
import { csvRecords, detectDelimiter, type CsvDelimiter } from './csv-records';
import { yieldToEventLoop } from '../util/slices';

/** `amount` may be left empty on a row whose BR Code carries the amount (pix_copy_paste). */
export const REQUIRED_CSV_COLUMNS = ['externalId', 'amount'] as const;
/** The fields of every rail: a row fills those of its `method` (pix_key when the cell is empty or the column absent). */
export const OPTIONAL_CSV_COLUMNS = [
  'method',
  'pixKey',
  'keyType',
  'description',
  'emv',
  'email',
  'wallet',
  'network',
] as const;
const KNOWN_COLUMNS: ReadonlySet<string> = new Set([...REQUIRED_CSV_COLUMNS, ...OPTIONAL_CSV_COLUMNS]);

/** The field name used for a problem of the whole row (malformed CSV). */
export const WHOLE_ROW_FIELD = '(row)';

export type CsvBatch =
  /** items[i] is row i (0-based, after the header); `undefined` where the row could not be read. */
  | { ok: true; items: unknown[]; rowIssues: RowIssue[] }
  /** The file as a whole is unusable (no header, wrong columns): nothing per row to say. */
  | { ok: false; issues: FieldIssue[] };

function checkHeader(header: string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const repeated = header.filter((name) => (seen.has(name) ? true : (seen.add(name), false)));
  if (repeated.length > 0)
    issues.push({ path: 'header', message: `repeated column(s): ${[...new Set(repeated)].join(', ')}` });
  const unknown = header.filter((name) => !KNOWN_COLUMNS.has(name));
  if (unknown.length > 0) {
    // One long unknown name holding a tab or a pipe: a file separated by something else than `,` or `;`.
    const separatedOtherwise =
      header.length === 1 && /[\t|]/.test(header[0] ?? '') ? '; the columns must be separated by "," or ";"' : '';
    issues.push({
      path: 'header',
      message: `unknown column(s): ${unknown.map((name) => JSON.stringify(name)).join(', ')}; the columns are ${[...KNOWN_COLUMNS].join(', ')}${separatedOtherwise}`,
    });
  }
  const missing = REQUIRED_CSV_COLUMNS.filter((name) => !seen.has(name));
  if (missing.length > 0) issues.push({ path: 'header', message: `missing column(s): ${missing.join(', ')}` });
  return issues;
}

export interface ReadBatchOptions {
  /** Rows read at most: the reader stops there, so that a file far over the batch limit costs no more than one just over it. */
  maxItems: number;
}

/** Rows per slice: a few milliseconds of parsing between two turns of the event loop. */
const CSV_SLICE = 1_000;

/**
 * Reads the file (UTF-8: csv-encoding.ts gives it so; a leading BOM is skipped) row by row, giving the
 * event loop a turn every CSV_SLICE rows, up to `maxItems` rows; every malformed row and unreadable
 * amount is reported, not just the first. A row of empty cells (`;;;`, as Excel saves a formatted row
 * left empty) counts as a blank line.
 */
export async function parseBatchCsv(input: Buffer | string, { maxItems }: ReadBatchOptions): Promise<CsvBatch> {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const utf8 = bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
  const delimiter = detectDelimiter(utf8, KNOWN_COLUMNS);
  const records = csvRecords(utf8, delimiter);
  try {
    const first = await records.next();
    if (first.done)
      return {
        ok: false,
        issues: [
          {
            path: 'header',
            message: `the CSV is empty; the first line must name the columns ${REQUIRED_CSV_COLUMNS.join(', ')}`,
          },
        ],
      };
    if ('error' in first.value) return { ok: false, issues: [{ path: 'header', message: first.value.error }] };
    const header = first.value.fields.map((name) => name.trim());
    const headerIssues = checkHeader(header);
    if (headerIssues.length > 0) return { ok: false, issues: headerIssues };

    const items: unknown[] = [];
    const rowIssues: RowIssue[] = [];
    let read = 0;
    for await (const record of records) {
      const index = items.length;
      if (index === maxItems) break;
      read += 1;
      if (read % CSV_SLICE === 0) await yieldToEventLoop();
      if ('error' in record) {
        items.push(undefined);
        rowIssues.push({ index, field: WHOLE_ROW_FIELD, message: record.error });
        continue;
      }
      if (record.fields.every((field) => field.trim() === '')) continue;
      if (record.fields.length !== header.length) {
        items.push(undefined);
        rowIssues.push({
          index,
          field: WHOLE_ROW_FIELD,
          message: `line ${record.line}: ${record.fields.length} field(s) where the header has ${header.length}`,
        });
        continue;
      }
      const { item, issue } = rowItem(header, record.fields, delimiter);
      items.push(item);
      if (issue) rowIssues.push({ index, ...issue });
    }
    return { ok: true, items, rowIssues };
  } finally {
    await records.return(undefined);
  }
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A row as the raw item a JSON body would carry, with its amount in reais; or the amount's problem. */
function rowItem(
  header: readonly string[],
  fields: readonly string[],
  delimiter: CsvDelimiter,
): { item: Record<string, string | number>; issue?: Omit<RowIssue, 'index'> } {
  const item: Record<string, string | number> = {};
  header.forEach((column, position) => {
    const value = (fields[position] ?? '').trim();
    // An empty cell means "not given", as a missing key in JSON: a mixed batch leaves the other rails' columns empty.
    if (value === '' && column !== 'externalId') return;
    item[column] = value;
  });
  if (item.amount === undefined) return { item };
  const amount = readCsvAmount(String(item.amount), delimiter);
  if (amount.ok) {
    item.amount = amount.reais;
    return { item };
  }
  const externalId =
    typeof item.externalId === 'string' && item.externalId !== '' ? { externalId: item.externalId } : {};
  return { item, issue: { ...externalId, field: 'amount', message: amount.message } };
}
