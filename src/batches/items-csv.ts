/**
 * A batch's items and their outcomes as a CSV that Excel pt-BR opens as it is: UTF-8 with a byte order
 * mark (without it Excel reads Windows-1252 and breaks every accent), `;` between cells and a decimal
 * comma in amounts (Excel pt-BR's list and decimal separators), CRLF line ends. Written page by page
 * with the response's backpressure, so 100,000 items never sit in memory at once. Text a spreadsheet
 * would run as a formula (a cell starting with `=`, `+`, `-`, `@`, a tab or a CR) is made text with a
 * leading `'`; the items carry no destination and no description, as the items route.
 */
import type { Writable } from 'node:stream';
import type { BatchItemView } from './batch-store';
import { yieldToEventLoop } from '../util/slices';

export const ITEMS_CSV_COLUMNS = ['seq', 'externalId', 'method', 'amount', 'status', 'fee', 'failureReason'] as const;

const BOM = '\uFEFF';
const DELIMITER = ';';
const LINE_END = '\r\n';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[;"\r\n]/;

/** One cell: formula-looking text made text, then quoted when it holds the delimiter, a quote or a line break. */
export function spreadsheetCell(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** 2550 → "25,50": Excel pt-BR reads it as the number 25.5. */
export function commaDecimal(centavos: number): string {
  return `${Math.trunc(centavos / 100)},${String(centavos % 100).padStart(2, '0')}`;
}

export function itemsCsvHeader(): string {
  return `${BOM}${ITEMS_CSV_COLUMNS.join(DELIMITER)}${LINE_END}`;
}

export function itemsCsvRows(items: readonly BatchItemView[]): string {
  return items
    .map(
      (item) =>
        [
          String(item.seq),
          item.externalId,
          item.method,
          commaDecimal(item.amountCents),
          item.state,
          item.feeCents === undefined ? '' : commaDecimal(item.feeCents),
          item.failureReason ?? '',
        ]
          .map(spreadsheetCell)
          .join(DELIMITER) + LINE_END,
    )
    .join('');
}

export interface StreamItemsCsvOptions {
  /** How long a reader that takes nothing may hold the export before it is cut. */
  stallMs: number;
}

/**
 * Writes the header, then each page as it comes, waiting for `out` to drain before the next page is read,
 * and giving the event loop a turn between pages.
 * Stops early (false) when the reader went away or stalled past `stallMs`; `out` is then destroyed.
 */
export async function streamItemsCsv(
  pages: AsyncIterable<readonly BatchItemView[]>,
  out: Writable,
  { stallMs }: StreamItemsCsvOptions,
): Promise<boolean> {
  if (!out.write(itemsCsvHeader()) && !(await drained(out, stallMs))) return false;
  for await (const page of pages) {
    if (out.destroyed) return false;
    if (!out.write(itemsCsvRows(page)) && !(await drained(out, stallMs))) return false;
    // A reader as fast as the store never makes `out` wait: the other requests get their turn here.
    await yieldToEventLoop();
  }
  return !out.destroyed;
}

/** True once `out` drains; false when it closes first or nothing drains within `stallMs` (it is then destroyed). */
function drained(out: Writable, stallMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      out.off('drain', onDrain);
      out.off('close', onClose);
      if (!ok) out.destroy();
      resolve(ok);
    };
    const onDrain = () => finish(true);
    const onClose = () => finish(false);
    const timer = setTimeout(() => finish(false), stallMs);
    out.on('drain', onDrain);
    out.on('close', onClose);
  });
}
