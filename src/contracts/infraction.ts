/**
 * Everything the outside world says to an infraction workflow, defined once: the MED sync, the engine
 * API and the workflow import these.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Defense } from '../infractions/defense';
import type { InfractionRecord } from '../infractions/infraction-record';
import type { UnreadableInfraction } from '../infractions/unreadable-record';
import type { ActivityProblem } from './activity-problem';
import type { Transition, TransitionTable } from './lifecycle';

/**
 * An infraction's states and the only moves between them. The provider's record decides the outcome
 * (ACCEPTED, REJECTED, CANCELLED); the engine adds what the merchant must see coming: DUE_SOON a lead
 * time (a day by default) before the deadline, DEADLINE_MISSED when it passed without a defense. NEEDS_REVIEW: the provider listed
 * it with a record the engine could not read (its `problem` names the record's fields); OPEN once it can.
 */
export const INFRACTION_STATES = [
  'OPEN',
  'DUE_SOON',
  'DEFENSE_SUBMITTED',
  'DEADLINE_MISSED',
  'ACCEPTED',
  'REJECTED',
  'CANCELLED',
  'NEEDS_REVIEW',
] as const;
export type InfractionState = (typeof INFRACTION_STATES)[number];

export function isInfractionState(value: unknown): value is InfractionState {
  return typeof value === 'string' && (INFRACTION_STATES as readonly string[]).includes(value);
}

const OUTCOMES = ['ACCEPTED', 'REJECTED', 'CANCELLED'] as const;

export const INFRACTION_TRANSITIONS: TransitionTable<InfractionState> = {
  OPEN: ['DUE_SOON', 'DEFENSE_SUBMITTED', 'DEADLINE_MISSED', ...OUTCOMES],
  DUE_SOON: ['DEFENSE_SUBMITTED', 'DEADLINE_MISSED', ...OUTCOMES],
  DEFENSE_SUBMITTED: [...OUTCOMES],
  DEADLINE_MISSED: [...OUTCOMES],
  ACCEPTED: [],
  REJECTED: [],
  CANCELLED: [],
  NEEDS_REVIEW: ['OPEN'],
};

/** While these, the merchant may still defend. */
export const DEFENDABLE_STATES: readonly InfractionState[] = ['OPEN', 'DUE_SOON'];

export interface InfractionInput {
  /** The provider's record as the sync first saw it (absent: `unreadable`, or carried). */
  record?: InfractionRecord;
  /** The sync could not read the provider's record: the workflow starts in NEEDS_REVIEW until a record it can read comes. */
  unreadable?: UnreadableInfraction & { infractionId: string };
  /** Carried over a continue-as-new. */
  carried?: InfractionView;
  /** How long before the deadline it is DUE_SOON (INFRACTION_DUE_SOON_LEAD_MS when started); absent on inputs of before: a day. */
  dueSoonLeadMs?: number;
}

export interface InfractionView {
  infractionId: string;
  state: InfractionState;
  /** Absent while NEEDS_REVIEW: no record the engine could read yet. */
  record?: InfractionRecord;
  /** The engine's charge the infracted cash-in belongs to; `null`: not a charge of the engine (unlinked). */
  chargeExternalId?: string | null;
  /** providerAnswer: what endpoint 8 answered, bounded and masked (its shape is not shown). */
  defense?: Defense & { submittedAt: string; providerAnswer?: string };
  /** When a charge was told of the accepted infraction. */
  refundRecordedAt?: string;
  transitions: readonly Transition<InfractionState>[];
  /** While NEEDS_REVIEW, why (the record's field names); else added by the workflow interceptor while an activity keeps failing. */
  problem?: ActivityProblem;
}

export type DefenseOutcome =
  { submitted: true; view: InfractionView } | { submitted: false; reason: string; view: InfractionView };

export type InfractionWorkflow = (input: InfractionInput) => Promise<InfractionView>;

/** The provider's current record, from the MED sync (signal-with-start). */
export const infractionRecordSignal = defineSignal<[InfractionRecord]>('infractionRecord');
export const infractionStatusQuery = defineQuery<InfractionView>('status');
/** The first defense is sent; the same one again gets its answer; refused (validator) when it can no longer be defended or another defense was taken. */
export const defendInfractionUpdate = defineUpdate<DefenseOutcome, [Defense]>('defend');

/** The search attribute `PayoutFlow` of an infraction. */
export const INFRACTION_FLOW = 'med-infraction';

export function infractionWorkflowId(infractionId: string): string {
  return `infraction:${infractionId}`;
}

/** The MED sync's input, as its Schedule starts it (src/lifecycles/med-sync-schedule.ts). */
export interface MedSyncInput {
  perPage: number;
}
