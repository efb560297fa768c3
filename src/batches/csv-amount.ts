/**
 * Amount cells of a batch CSV, read from their digits into reais (a JSON number with at most two places),
 * never through a float multiplication. A `,`-separated file writes `25.50`; a `;`-separated one is what
 * Excel pt-BR saves, and writes `25,50` (and `1.234,56` where the cell shows thousands). Nothing that
 * could be read two ways is guessed: `25.50` in a `;` file, or `1.234` with no decimal comma, is refused
 * with the form to write instead.
 */
import { centavosToReais } from '../money/centavos';
import type { CsvDelimiter } from './csv-records';

const DOT_DECIMAL = /^(\d{1,13})(?:\.(\d{1,2}))?$/;
const COMMA_DECIMAL = /^(\d{1,13})(?:,(\d{1,2}))?$/;
/** Thousands grouped by dots, in threes, then the decimal comma (required: see above). */
const GROUPED_COMMA_DECIMAL = /^(\d{1,3}(?:\.\d{3})+),(\d{1,2})$/;
/** `1.234`: a thousand reais to Excel pt-BR, one real and change to anything else. */
const GROUPED_NO_DECIMAL = /^\d{1,3}(?:\.\d{3})+$/;

export type CsvAmount = { ok: true; reais: number } | { ok: false; message: string };

function reaisOf(whole: string, fraction: string | undefined): number {
  return centavosToReais(Number(whole) * 100 + Number((fraction ?? '').padEnd(2, '0')));
}

/** Exact "25", "25.5", "25.50" → the JSON number 25.5; undefined for anything else. */
export function csvAmountToReais(text: string): number | undefined {
  const match = DOT_DECIMAL.exec(text.trim());
  return match ? reaisOf(match[1] ?? '', match[2]) : undefined;
}

/** Exact "25", "25,5", "25,50", "1.234,56" → the JSON number; undefined for anything else. */
export function commaAmountToReais(text: string): number | undefined {
  const trimmed = text.trim();
  const plain = COMMA_DECIMAL.exec(trimmed);
  if (plain) return reaisOf(plain[1] ?? '', plain[2]);
  const grouped = GROUPED_COMMA_DECIMAL.exec(trimmed);
  const whole = grouped?.[1]?.replace(/\./g, '');
  return grouped && whole !== undefined && whole.length <= 13 ? reaisOf(whole, grouped[2]) : undefined;
}

/** The amount cell of a file with this delimiter, or why it cannot be read. */
export function readCsvAmount(text: string, delimiter: CsvDelimiter): CsvAmount {
  const got = `(got ${JSON.stringify(text)})`;
  if (delimiter === ',') {
    const reais = csvAmountToReais(text);
    return reais === undefined
      ? {
          ok: false,
          message: `amount must be a plain decimal with a dot and at most 2 decimal places, e.g. 25.50 ${got}`,
        }
      : { ok: true, reais };
  }
  const reais = commaAmountToReais(text);
  if (reais !== undefined) return { ok: true, reais };
  if (GROUPED_NO_DECIMAL.test(text.trim())) {
    return {
      ok: false,
      message: `amount with a dot and no decimal comma could be thousands or decimals: write 1234, 1.234,00 or 1,23 ${got}`,
    };
  }
  if (DOT_DECIMAL.test(text.trim()))
    return {
      ok: false,
      message: `in a file separated by ";" the decimal separator is a comma: write 25,50, not 25.50 ${got}`,
    };
  return {
    ok: false,
    message: `amount must be a decimal with a comma and at most 2 decimal places, e.g. 25,50 or 1.234,56 ${got}`,
  };
}
