/**
 * The verdict on a trial's charges, card payments and infractions: each one's final state in the engine
 * against the provider's ledger, as the payout checker does for payouts. Money counted on the merchant's
 * account: a charge is one credit (`cash-in.paid`), a card payment one capture (`card-payment.captured`),
 * an accepted infraction one debit (`infraction.refund`). Pure, so that it can be tested on made-up
 * evidence.
 */

export type LifecycleKind = 'charge' | 'cardPayment' | 'infraction';

/** What the engine shows of one lifecycle; `known: false` when it answers 404. */
export type EngineReading =
  { known: false } | { known: true; status: string; reviewReason?: string; refundedCents?: number };

export interface LifecycleEvidence {
  kind: LifecycleKind;
  id: string;
  /** The engine accepted its creation (a charge, a card payment), or the provider opened it (an infraction). */
  started: boolean;
  engine: EngineReading;
  /** The provider's money entries for it on the merchant's account: credits, captures or refund debits. */
  moneyEntries: number;
  /** A charge: what the provider took back from it for accepted infractions, in centavos. */
  providerRefundedCents?: number;
  /** An infraction: its status at the provider (WAITING_PSP while nobody resolved it). */
  providerStatus?: string;
}

export interface LifecycleVerdict {
  total: number;
  /** Final states in the engine, by name. */
  states: Record<string, number>;
  /** More than one credit, capture or refund at the provider for one of them. */
  doubleDebits: number;
  /** Started but unknown to the engine. */
  lost: number;
  /** Not final at the deadline, or NEEDS_REVIEW without a reason. */
  stuckWithoutReason: number;
  /** The engine's final state contradicts the provider's money. */
  ledgerMismatches: number;
  /** Never started (the driver gave up before the engine or the provider accepted it): not a failure, shown. */
  notStarted: number;
  /** NEEDS_REVIEW with its reason shown, by the kind of reason (the text before its first colon). */
  reviewReasons: Record<string, number>;
  problems: string[];
}

/** Which engine states say the money moved (1 entry) or did not (0); the others are not final (or final only with a reason). */
const MONEY_BY_STATE: Record<LifecycleKind, Record<string, 0 | 1>> = {
  charge: { PAID: 1, PARTIALLY_REFUNDED: 1, REFUNDED: 1, EXPIRED: 0, FAILED: 0 },
  cardPayment: { PAID: 1, FAILED: 0, EXPIRED: 0 },
  infraction: { ACCEPTED: 1, REJECTED: 0, CANCELLED: 0 },
};
/** Waiting with its reason shown for an operator. */
const REVIEW_STATE = 'NEEDS_REVIEW';
/** An infraction nobody at the provider resolved yet: the engine rightly waits. */
const PROVIDER_OPEN = 'WAITING_PSP';

export const emptyLifecycleVerdict = (): LifecycleVerdict => ({
  total: 0,
  states: {},
  doubleDebits: 0,
  lost: 0,
  stuckWithoutReason: 0,
  ledgerMismatches: 0,
  notStarted: 0,
  reviewReasons: {},
  problems: [],
});

export function checkLifecycles(evidence: readonly LifecycleEvidence[]): LifecycleVerdict {
  const verdict = emptyLifecycleVerdict();
  const problem = (item: LifecycleEvidence, what: string) => verdict.problems.push(`${item.kind} ${item.id}: ${what}`);
  for (const item of evidence) {
    verdict.total += 1;
    if (item.moneyEntries > 1) {
      verdict.doubleDebits += 1;
      problem(item, `${item.moneyEntries} money entries at the provider`);
    }
    if (!item.engine.known) {
      if (item.started || item.moneyEntries > 0) {
        verdict.lost += 1;
        problem(item, 'unknown to the engine');
      } else verdict.notStarted += 1;
      continue;
    }
    const { status } = item.engine;
    verdict.states[status] = (verdict.states[status] ?? 0) + 1;
    const expected = MONEY_BY_STATE[item.kind][status];
    if (expected !== undefined) {
      if (Math.min(item.moneyEntries, 1) !== expected) {
        verdict.ledgerMismatches += 1;
        problem(item, `${status} with ${item.moneyEntries} money entries at the provider`);
      } else if (item.kind === 'charge' && (item.engine.refundedCents ?? 0) !== (item.providerRefundedCents ?? 0)) {
        verdict.ledgerMismatches += 1;
        problem(
          item,
          `${status}, ${item.engine.refundedCents ?? 0} centavos refunded by the engine's account, ${item.providerRefundedCents ?? 0} by the provider's`,
        );
      } else if (item.kind === 'infraction' && item.providerStatus !== undefined && item.providerStatus !== status) {
        verdict.ledgerMismatches += 1;
        problem(item, `${status} in the engine, ${item.providerStatus} at the provider`);
      }
      continue;
    }
    if (status === REVIEW_STATE && item.engine.reviewReason) {
      const kind = item.engine.reviewReason.split(':')[0] ?? item.engine.reviewReason;
      verdict.reviewReasons[kind] = (verdict.reviewReasons[kind] ?? 0) + 1;
      continue;
    }
    if (item.kind === 'infraction' && item.providerStatus === PROVIDER_OPEN && item.moneyEntries === 0) continue;
    verdict.stuckWithoutReason += 1;
    problem(item, status === REVIEW_STATE ? 'NEEDS_REVIEW without a reason' : `still ${status} at the deadline`);
  }
  return verdict;
}

const addCounts = (a: Record<string, number>, b: Record<string, number>): Record<string, number> => {
  const sum = { ...a };
  for (const [key, count] of Object.entries(b)) sum[key] = (sum[key] ?? 0) + count;
  return sum;
};

export function addLifecycleVerdict(sum: LifecycleVerdict, next: LifecycleVerdict): LifecycleVerdict {
  const states = addCounts(sum.states, next.states);
  return {
    total: sum.total + next.total,
    states,
    doubleDebits: sum.doubleDebits + next.doubleDebits,
    lost: sum.lost + next.lost,
    stuckWithoutReason: sum.stuckWithoutReason + next.stuckWithoutReason,
    ledgerMismatches: sum.ledgerMismatches + next.ledgerMismatches,
    notStarted: sum.notStarted + next.notStarted,
    reviewReasons: addCounts(sum.reviewReasons, next.reviewReasons),
    problems: [...sum.problems, ...next.problems],
  };
}
