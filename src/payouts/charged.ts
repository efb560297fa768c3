/**
 * What a payout took from the merchant's balance, as an accountant books it. A FAILED payout was refunded
 * by the provider, amount and fee (docs/assumptions.md), so its fee and total are 0 whatever fee the
 * provider quoted when it took the request; any other payout shows the provider's fee and total. Pure:
 * the API's answer, the payout's events and its batch's outcome all read it.
 */
import type { PayoutState } from './payout-state';

export interface ChargedCents {
  feeCents?: number;
  totalCents?: number;
}

export function chargedCents(payout: { state: PayoutState } & ChargedCents): ChargedCents {
  if (payout.state === 'FAILED') return { feeCents: 0, totalCents: 0 };
  return {
    ...(payout.feeCents === undefined ? {} : { feeCents: payout.feeCents }),
    ...(payout.totalCents === undefined ? {} : { totalCents: payout.totalCents }),
  };
}
