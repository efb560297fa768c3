/**
 * Everything the outside world says to an infraction workflow, defined once: the MED sync, the engine
 * API and the workflow import these.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Defense } from '../../src/infractions/defense';
import type { InfractionRecord } from '../../src/infractions/infraction-record';
import type { ActivityProblem } from '../shared/activity-problems';
import type { Transition } from '../shared/lifecycle';
import type { InfractionState } from './states';

export interface InfractionInput {
  /** The provider's record as the sync first saw it. */
  record: InfractionRecord;
  /** Carried over a continue-as-new. */
  carried?: InfractionView;
}

export interface InfractionView {
  infractionId: string;
  state: InfractionState;
  record: InfractionRecord;
  /** The engine's charge the infracted cash-in belongs to; `null`: not a charge of the engine (unlinked). */
  chargeExternalId?: string | null;
  defense?: Defense & { submittedAt: string };
  /** When a charge was told of the accepted infraction. */
  refundRecordedAt?: string;
  transitions: readonly Transition<InfractionState>[];
  /** Added to the status query's answer by the workflow interceptor while an activity keeps failing. */
  problem?: ActivityProblem;
}

export type DefenseOutcome = { submitted: true; view: InfractionView } | { submitted: false; reason: string; view: InfractionView };

export type InfractionWorkflow = (input: InfractionInput) => Promise<InfractionView>;

/** The provider's current record, from the MED sync (signal-with-start). */
export const infractionRecordSignal = defineSignal<[InfractionRecord]>('infractionRecord');
export const infractionStatusQuery = defineQuery<InfractionView>('status');
/** The first defense is sent; the same one again gets its answer; refused (validator) when it can no longer be defended or another defense was taken. */
export const defendInfractionUpdate = defineUpdate<DefenseOutcome, [Defense]>('defend');

export function infractionWorkflowId(infractionId: string): string {
  return `infraction:${infractionId}`;
}
