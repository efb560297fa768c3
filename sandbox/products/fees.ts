/**
 * The sandbox's fee schedule, as docs/assumptions.md section 7 states it (the spec's one example:
 * amount 25.00 → fee 1.25, total 26.25). Percentages round half up to the centavo in integer
 * arithmetic; the fee is charged on top, so the recipient always receives exactly `amount`.
 */
import { percentOf, type Centavos } from '../../src/money/centavos';

/** Withdrawals and copy-and-paste payments: R$ 0.50 fixed + 3 % of the amount, at request time. */
export const PIX_OUT_FEE_FIXED_CENTS = 50;
export const PIX_OUT_FEE_BASIS_POINTS = 300;

export function pixOutFeeCents(amountCents: Centavos): Centavos {
  return PIX_OUT_FEE_FIXED_CENTS + percentOf(amountCents, PIX_OUT_FEE_BASIS_POINTS);
}

/** Internal transfers between users of the environment are free. */
export const INTERNAL_TRANSFER_FEE_CENTS = 0;
