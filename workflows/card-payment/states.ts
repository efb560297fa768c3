/**
 * A card payment's states and the only moves between them. AUTHORIZING is the window in which the
 * API holds the card and asks the provider; a workflow that does not hear the provider's answer in time
 * goes to NEEDS_REVIEW (the provider may have charged the card), from where the payment id, when it
 * arrives (late answer or the provider's callback), still settles it by the check.
 */
import type { TransitionTable } from '../shared/lifecycle';

export const CARD_PAYMENT_STATES = ['AWAITING_CARD', 'AUTHORIZING', 'PENDING', 'PAID', 'FAILED', 'EXPIRED', 'NEEDS_REVIEW'] as const;
export type CardPaymentState = (typeof CARD_PAYMENT_STATES)[number];

export function isCardPaymentState(value: string | undefined): value is CardPaymentState {
  return (CARD_PAYMENT_STATES as readonly string[]).includes(value ?? '');
}

export const CARD_PAYMENT_TRANSITIONS: TransitionTable<CardPaymentState> = {
  AWAITING_CARD: ['AUTHORIZING', 'FAILED', 'EXPIRED'],
  AUTHORIZING: ['PENDING', 'FAILED', 'NEEDS_REVIEW'],
  PENDING: ['PAID', 'FAILED', 'NEEDS_REVIEW'],
  NEEDS_REVIEW: ['PENDING', 'PAID', 'FAILED'],
  PAID: [],
  FAILED: [],
  EXPIRED: [],
};
