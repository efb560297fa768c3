/**
 * A batch as `text/csv`: a header row naming the columns of a payout request, then one payout per
 * row. Rows become the same raw objects a JSON body carries, so one schema validates both. Amount
 * text goes to centavos from its digits and back to a JSON number of reais, never through a float
 * multiplication; a row's problems found here travel on as known issues to validateBatch.
 */
import type { ApiIssue, ApiRowIssue } from '../api/errors';
import { centavosToReais } from '../money/centavos';
import { csvRecords } from './csv-records';

export const REQUIRED_CSV_COLUMNS = ['externalId', 'amount', 'pixKey', 'keyType'] as const;
export const OPTIONAL_CSV_COLUMNS = ['description'] as const;
const KNOWN_COLUMNS: ReadonlySet<string> = new Set([...REQUIRED_CSV_COLUMNS, ...OPTIONAL_CSV_COLUMNS]);

/** The field name used for a problem of the whole row (malformed CSV). */
export const WHOLE_ROW_FIELD = '(row)';

export type CsvBatch =
  /** items[i] is row i (0-based, after the header); `undefined` where the row could not be read. */
  | { ok: true; items: unknown[]; rowIssues: ApiRowIssue[] }
  /** The file as a whole is unusable (no header, wrong columns): nothing per row to say. */
  | { ok: false; issues: ApiIssue[] };

const PLAIN_DECIMAL = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/** Exact "25", "25.5", "25.50" → the JSON number 25.5; undefined for anything else. */
export function csvAmountToReais(text: string): number | undefined {
  const match = PLAIN_DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const centavos = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return centavosToReais(centavos);
}

function checkHeader(header: string[]): ApiIssue[] {
  const issues: ApiIssue[] = [];
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

/** Parses the whole text; every malformed row and unreadable amount is reported, not just the first. */
export function parseBatchCsv(text: string): CsvBatch {
  const records = csvRecords(text);
  const first = records.next();
  if (first.done) return { ok: false, issues: [{ path: 'header', message: `the CSV is empty; the first line must name the columns ${REQUIRED_CSV_COLUMNS.join(', ')}` }] };
  if ('error' in first.value) return { ok: false, issues: [{ path: 'header', message: first.value.error }] };
  const header = first.value.fields.map((name) => name.trim());
  const headerIssues = checkHeader(header);
  if (headerIssues.length > 0) return { ok: false, issues: headerIssues };

  const items: unknown[] = [];
  const rowIssues: ApiRowIssue[] = [];
  for (const record of records) {
    const index = items.length;
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
    const item: Record<string, unknown> = {};
    header.forEach((column, position) => {
      const value = (record.fields[position] ?? '').trim();
      // An empty optional cell means "not given", as a missing key in JSON.
      if (value === '' && column === 'description') return;
      item[column] = value;
    });
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
