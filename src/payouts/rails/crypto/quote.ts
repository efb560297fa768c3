/**
 * What a crypto withdrawal costs and delivers, from the provider's current fees (docs/assumptions.md
 * §4.6): fee = rate_fixed + withdrawal_rate % of the amount, half up to the centavo, on top of the
 * amount; USDT = amount / usdt_rate, in decimal arithmetic, rounded down to 6 places.
 */
import Decimal from 'decimal.js';
import { centavosToReais } from '../../../money/centavos';
import { usdtAmountForReais, type CryptoFeesResponse } from '../../../payment-api/schemas/crypto';

export interface CryptoQuote {
  amountCents: number;
  feeCents: number;
  totalCents: number;
  /** Decimal string, 6 places. */
  usdtAmount: string;
  usdtRate: number;
  minCents: number;
  maxCents: number;
}

export type QuoteResult =
  { ok: true; quote: CryptoQuote } | { ok: false; reason: string; minCents: number; maxCents: number };

/** The provider's bounds and rates may carry more than 2 places: read them as decimals, not floats. */
function centavosOf(reais: number): number {
  return new Decimal(String(reais)).mul(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

export function quoteCrypto(amountCents: number, fees: CryptoFeesResponse): QuoteResult {
  const minCents = centavosOf(fees.min_withdrawal);
  const maxCents = centavosOf(fees.max_withdrawal);
  if (amountCents < minCents || amountCents > maxCents) {
    return {
      ok: false,
      reason: `amount must be between ${fees.min_withdrawal} and ${fees.max_withdrawal} (the provider's min_withdrawal and max_withdrawal)`,
      minCents,
      maxCents,
    };
  }
  const percentage = new Decimal(amountCents)
    .mul(new Decimal(String(fees.withdrawal_rate)))
    .div(100)
    .toDecimalPlaces(0, Decimal.ROUND_HALF_UP)
    .toNumber();
  const feeCents = centavosOf(fees.rate_fixed) + percentage;
  return {
    ok: true,
    quote: {
      amountCents,
      feeCents,
      totalCents: amountCents + feeCents,
      usdtAmount: usdtAmountForReais(centavosToReais(amountCents), fees.usdt_rate),
      usdtRate: fees.usdt_rate,
      minCents,
      maxCents,
    },
  };
}
