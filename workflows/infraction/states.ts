/**
 * An infraction's states and the only moves between them. The provider's record decides the outcome
 * (ACCEPTED, REJECTED, CANCELLED); the engine adds what the merchant must see coming: DUE_SOON a day
 * before the deadline, DEADLINE_MISSED when it passed without a defense.
 */
import type { TransitionTable } from '../shared/lifecycle';

export const INFRACTION_STATES = ['OPEN', 'DUE_SOON', 'DEFENSE_SUBMITTED', 'DEADLINE_MISSED', 'ACCEPTED', 'REJECTED', 'CANCELLED'] as const;
export type InfractionState = (typeof INFRACTION_STATES)[number];

const OUTCOMES = ['ACCEPTED', 'REJECTED', 'CANCELLED'] as const;

export const INFRACTION_TRANSITIONS: TransitionTable<InfractionState> = {
  OPEN: ['DUE_SOON', 'DEFENSE_SUBMITTED', 'DEADLINE_MISSED', ...OUTCOMES],
  DUE_SOON: ['DEFENSE_SUBMITTED', 'DEADLINE_MISSED', ...OUTCOMES],
  DEFENSE_SUBMITTED: [...OUTCOMES],
  DEADLINE_MISSED: [...OUTCOMES],
  ACCEPTED: [],
  REJECTED: [],
  CANCELLED: [],
};

/** While these, the merchant may still defend. */
export const DEFENDABLE_STATES: readonly InfractionState[] = ['OPEN', 'DUE_SOON'];
