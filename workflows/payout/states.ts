/**
 * The payout's states and the only moves between them. NEEDS_REVIEW is where a payout whose outcome
 * could not be established waits for an operator: a recheck can still settle it, a cancel can end it
 * when the provider has no record of it.
 */
import type { TransitionTable } from '../shared/lifecycle';

export const PAYOUT_STATES = ['RECEIVED', 'SUBMITTED', 'COMPLETED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

export const PAYOUT_TRANSITIONS: TransitionTable<PayoutState> = {
  RECEIVED: ['SUBMITTED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW'],
  SUBMITTED: ['COMPLETED', 'FAILED', 'NEEDS_REVIEW'],
  NEEDS_REVIEW: ['SUBMITTED', 'COMPLETED', 'FAILED', 'CANCELLED'],
  COMPLETED: [],
  FAILED: [],
  CANCELLED: [],
};
