/**
 * A batch as `text/csv`: a header row naming the columns of a payout request, then one payout per
 * row. Rows become the same raw objects a JSON body carries, so one schema validates both. Amount
 * text goes to centavos from its digits and back to a JSON number of reais, never through a float
 * multiplication; a row's problems found here travel on as known issues to validateBatch.
 */
import type { FieldIssue, RowIssue } from '../validation/issues';
import { centavosToReais } from '../money/centavos';
import { csvRecords } from './csv-records';
import { runInSlices, type Slices } from '../util/slices';

/** `amount` may be left empty on a row whose BR Code carries the amount (pix_copy_paste). */
export const REQUIRED_CSV_COLUMNS = ['externalId', 'amount'] as const;
/** The fields of every rail: a row fills those of its `method` (pix_key when the cell is empty or the column absent). */
export const OPTIONAL_CSV_COLUMNS = ['method', 'pixKey', 'keyType', 'description', 'emv', 'email', 'wallet', 'network'] as const;
const KNOWN_COLUMNS: ReadonlySet<string> = new Set([...REQUIRED_CSV_COLUMNS, ...OPTIONAL_CSV_COLUMNS]);

/** The field name used for a problem of the whole row (malformed CSV). */
export const WHOLE_ROW_FIELD = '(row)';

export type CsvBatch =
  /** items[i] is row i (0-based, after the header); `undefined` where the row could not be read. */
  | { ok: true; items: unknown[]; rowIssues: RowIssue[] }
  /** The file as a whole is unusable (no header, wrong columns): nothing per row to say. */
  | { ok: false; issues: FieldIssue[] };

const PLAIN_DECIMAL = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/** Exact "25", "25.5", "25.50" → the JSON number 25.5; undefined for anything else. */
export function csvAmountToReais(text: string): number | undefined {
  const match = PLAIN_DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const centavos = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return centavosToReais(centavos);
}

function checkHeader(header: string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const repeated = header.filter((name) => (seen.has(name) ? true : (seen.add(name), false)));
  if (repeated.length > 0) issues.push({ path: 'header', message: `repeated column(s): ${[...new Set(repeated)].join(', ')}` });
  const unknown = header.filter((name) => !KNOWN_COLUMNS.has(name));
  if (unknown.length > 0) {
    issues.push({ path: 'header', message: `unknown column(s): ${unknown.map((name) => JSON.stringify(name)).join(', ')}; the columns are ${[...KNOWN_COLUMNS].join(', ')}` });
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
 * Reads the text in slices of rows, giving the event loop a turn between them, up to `maxItems` rows;
 * every malformed row and unreadable amount is reported, not just the first.
 */
export function parseBatchCsv(text: string, options: ReadBatchOptions): Promise<CsvBatch> {
  return runInSlices(csvBatchSlices(text, options));
}

function* csvBatchSlices(text: string, { maxItems }: ReadBatchOptions): Slices<CsvBatch> {
  const records = csvRecords(text);
  const first = records.next();
  if (first.done) return { ok: false, issues: [{ path: 'header', message: `the CSV is empty; the first line must name the columns ${REQUIRED_CSV_COLUMNS.join(', ')}` }] };
  if ('error' in first.value) return { ok: false, issues: [{ path: 'header', message: first.value.error }] };
  const header = first.value.fields.map((name) => name.trim());
  const headerIssues = checkHeader(header);
  if (headerIssues.length > 0) return { ok: false, issues: headerIssues };

  const items: unknown[] = [];
  const rowIssues: RowIssue[] = [];
  for (const record of records) {
    const index = items.length;
    if (index === maxItems) break;
    if (index > 0 && index % CSV_SLICE === 0) yield;
    if ('error' in record) {
      items.push(undefined);
      rowIssues.push({ index, field: WHOLE_ROW_FIELD, message: record.error });
      continue;
    }
    if (record.fields.length !== header.length) {
      items.push(undefined);
      rowIssues.push({ index, field: WHOLE_ROW_FIELD, message: `line ${record.line}: ${record.fields.length} field(s) where the header has ${header.length}` });
      continue;
    }
    const item: Record<string, string | number> = {};
    header.forEach((column, position) => {
      const value = (record.fields[position] ?? '').trim();
      // An empty cell means "not given", as a missing key in JSON: a mixed batch leaves the other rails' columns empty.
      if (value === '' && column !== 'externalId') return;
      item[column] = value;
    });
    if (item.amount === undefined) {
      items.push(item);
      continue;
    }
    const amountText = String(item.amount);
    const amount = csvAmountToReais(amountText);
    if (amount === undefined) {
      const externalId = typeof item.externalId === 'string' && item.externalId !== '' ? { externalId: item.externalId } : {};
      rowIssues.push({ index, ...externalId, field: 'amount', message: `amount must be a plain decimal with a dot and at most 2 decimal places, e.g. 25.50 (got ${JSON.stringify(amountText)})` });
    } else {
      item.amount = amount;
    }
    items.push(item);
  }
  return { ok: true, items, rowIssues };
}
