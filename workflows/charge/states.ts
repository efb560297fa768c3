/**
 * A PIX charge's states and the only moves between them. The provider's check decides payment; the
 * engine's own expiry decides EXPIRED, which a payment the provider confirms later still overturns
 * (money arrived). An accepted MED infraction returns part or all of a paid charge.
 */
import type { TransitionTable } from '../shared/lifecycle';

export const CHARGE_STATES = ['PENDING', 'PAID', 'EXPIRED', 'FAILED', 'PARTIALLY_REFUNDED', 'REFUNDED'] as const;
export type ChargeState = (typeof CHARGE_STATES)[number];

export const CHARGE_TRANSITIONS: TransitionTable<ChargeState> = {
  PENDING: ['PAID', 'EXPIRED', 'FAILED'],
  // A late payment: confirmed by the provider within the late-payment window after the engine's expiry.
  EXPIRED: ['PAID'],
  PAID: ['PARTIALLY_REFUNDED', 'REFUNDED'],
  PARTIALLY_REFUNDED: ['PARTIALLY_REFUNDED', 'REFUNDED'],
  FAILED: [],
  REFUNDED: [],
};

export function isChargeState(value: unknown): value is ChargeState {
  return typeof value === 'string' && (CHARGE_STATES as readonly string[]).includes(value);
}
