/**
 * Money crosses every boundary as decimal reais (a JSON number with at most two places) and lives
 * inside as integer centavos. The conversion goes through the number's shortest string form so that
 * `8.165` or `1.005` can never be silently rounded by a float multiplication.
 */

export type Centavos = number;

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

export class MoneyFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoneyFormatError';
  }
}

/** Exact reais → centavos; throws on NaN, infinities, exponents, negatives or a third decimal. */
export function reaisToCentavos(reais: number): Centavos {
  if (typeof reais !== 'number' || !Number.isFinite(reais)) {
    throw new MoneyFormatError('must be a finite number');
  }
  const text = String(reais);
  if (text.startsWith('-')) throw new MoneyFormatError('must not be negative');
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) throw new MoneyFormatError('must have at most 2 decimal places');
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(2, '0');
  const centavos = Number(whole) * 100 + Number(fraction);
  if (!Number.isSafeInteger(centavos)) throw new MoneyFormatError('is too large');
  return centavos;
}

/** Integer centavos → the JSON number of reais; exact because the quotient's shortest form has 2 places. */
export function centavosToReais(centavos: Centavos): number {
  assertCentavos(centavos);
  return centavos / 100;
}

/** "1.234,56"-free, dot-decimal text with exactly two places, for CSV and human output. */
export function formatCentavos(centavos: Centavos): string {
  assertCentavos(centavos);
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function assertCentavos(value: number): asserts value is Centavos {
  if (!Number.isSafeInteger(value)) throw new MoneyFormatError(`centavos must be an integer, got ${value}`);
}

/**
 * Rounds `amount * basisPoints / 10000` half up to the centavo, in integer arithmetic.
 * Used for percentage fees and splits; the rounding remainder stays with whoever pays the fee.
 */
export function percentOf(amount: Centavos, basisPoints: number): Centavos {
  assertCentavos(amount);
  assertCentavos(basisPoints);
  return Math.floor((amount * basisPoints + 5000) / 10000);
}

/** The largest amount in reais whose centavos are still a safe integer. */
export const MAX_SAFE_REAIS = Number.MAX_SAFE_INTEGER / 100;
