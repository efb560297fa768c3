/**
 * The units of endpoint 12's fees are not in the spec: `withdrawal_rate` may be a percentage (2 means
 * 2 %) or a fraction (0.02), `rate_fixed` reais or USDT. The engine reads them one way (percent, reais:
 * docs/assumptions.md §4.6); this is the one mapping from the provider's units to it, by setting
 * (CRYPTO_FEE_RATE_UNIT, CRYPTO_FEE_FIXED_UNIT), in decimal arithmetic.
 */
import Decimal from 'decimal.js';
import type { CryptoFeesResponse } from './schemas/crypto';

export interface CryptoFeeUnits {
  rate: 'percent' | 'fraction';
  fixed: 'reais' | 'usdt';
}

export const ENGINE_CRYPTO_FEE_UNITS: CryptoFeeUnits = { rate: 'percent', fixed: 'reais' };

export function inEngineUnits(fees: CryptoFeesResponse, units: CryptoFeeUnits): CryptoFeesResponse {
  const decimal = (value: number) => new Decimal(String(value));
  return {
    ...fees,
    withdrawal_rate:
      units.rate === 'fraction' ? decimal(fees.withdrawal_rate).mul(100).toNumber() : fees.withdrawal_rate,
    rate_fixed:
      units.fixed === 'usdt' ? decimal(fees.rate_fixed).mul(decimal(fees.usdt_rate)).toNumber() : fees.rate_fixed,
  };
}
