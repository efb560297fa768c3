/**
 * Charges, card payments and infractions as the read model keeps them: one row each, written by their
 * workflows at start and at each move (behind the `operation-read-model` patch) and by the API when it
 * creates one, so that their lists come from the engine's database, not Temporal's visibility.
 */
import type { CardPaymentView } from '../lifecycles/card-payment-client';
import type { ChargeView } from '../lifecycles/charge-client';
import type { InfractionView } from '../lifecycles/infraction-client';

export const OPERATION_KINDS = ['charge', 'card_payment', 'infraction'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

/** What one write says; `seq` is the index of the transition it shows (0: created). */
export interface OperationRecord {
  kind: OperationKind;
  /** The business id: a charge's or card payment's externalId, an infraction's id. */
  id: string;
  seq: number;
  status: string;
  /** Absent for an infraction whose provider record could not be read. */
  amountCents?: number;
  /** An infraction's defense deadline (RFC 3339). */
  deadline?: string;
  /**
   * The operation's view as its workflow holds it: the store keeps only its detail, without PII (what its GET answers
   * once the workflow is gone; operation-details.ts). Stripped there, not here: zod's lazily built schemas cannot run
   * in the workflow sandbox, which freezes module state.
   */
  view?: unknown;
}

const seqOf = (view: { transitions: readonly unknown[] }): number => Math.max(0, view.transitions.length - 1);

export function chargeRecord(view: ChargeView): OperationRecord {
  return {
    kind: 'charge',
    id: view.externalId,
    seq: seqOf(view),
    status: view.state,
    amountCents: view.amountCents,
    view,
  };
}

export function cardPaymentRecord(view: CardPaymentView): OperationRecord {
  return {
    kind: 'card_payment',
    id: view.externalId,
    seq: seqOf(view),
    status: view.state,
    amountCents: view.amountCents,
    view,
  };
}

export function infractionRecord(view: InfractionView): OperationRecord {
  const record = view.record;
  return {
    kind: 'infraction',
    id: view.infractionId,
    seq: seqOf(view),
    status: view.state,
    ...(record ? { amountCents: record.amountCents, deadline: record.defenseDeadline } : {}),
    view,
  };
}
