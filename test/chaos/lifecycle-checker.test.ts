/** The chaos run's checkers of charges, card payments, infractions and merchant events, on made-up evidence: each problem found, and only where it is. */
import { checkLifecycles, type LifecycleEvidence } from '../../tools/chaos/lifecycle-checker';
import { checkDeliveries, type Reception } from '../../tools/chaos/webhook-trial';

const charge = (
  id: string,
  status: string | undefined,
  moneyEntries: number,
  more: Partial<LifecycleEvidence> = {},
): LifecycleEvidence => ({
  kind: 'charge',
  id,
  started: true,
  engine: status === undefined ? { known: false } : { known: true, status, refundedCents: 0 },
  moneyEntries,
  providerRefundedCents: 0,
  ...more,
});

test('charges: final states that agree with the credits pass; a second credit, a lost one, a stuck one and contradictions are each named', () => {
  const verdict = checkLifecycles([
    charge('paid', 'PAID', 1),
    charge('expired', 'EXPIRED', 0),
    charge('twice', 'PAID', 2),
    charge('gone', undefined, 0),
    charge('never-created', undefined, 0, { started: false }),
    charge('pending', 'PENDING', 0),
    charge('paid-but-expired', 'EXPIRED', 1),
    charge('refund-differs', 'PARTIALLY_REFUNDED', 1, {
      engine: { known: true, status: 'PARTIALLY_REFUNDED', refundedCents: 4_000 },
      providerRefundedCents: 0,
    }),
  ]);
  expect(verdict).toMatchObject({
    total: 8,
    doubleDebits: 1,
    lost: 1,
    notStarted: 1,
    stuckWithoutReason: 1,
    ledgerMismatches: 2,
    states: { PAID: 2, EXPIRED: 2, PENDING: 1, PARTIALLY_REFUNDED: 1 },
  });
  expect(verdict.problems).toEqual([
    'charge twice: 2 money entries at the provider',
    'charge gone: unknown to the engine',
    'charge pending: still PENDING at the deadline',
    'charge paid-but-expired: EXPIRED with 1 money entries at the provider',
    "charge refund-differs: PARTIALLY_REFUNDED, 4000 centavos refunded by the engine's account, 0 by the provider's",
  ]);
});

test("card payments: NEEDS_REVIEW with a reason is visible, without one stuck; infractions follow the provider's status", () => {
  const card = (id: string, status: string, moneyEntries: number, reviewReason?: string): LifecycleEvidence => ({
    kind: 'cardPayment',
    id,
    started: true,
    engine: { known: true, status, ...(reviewReason ? { reviewReason } : {}) },
    moneyEntries,
  });
  const infraction = (id: string, status: string, providerStatus: string, moneyEntries: number): LifecycleEvidence => ({
    kind: 'infraction',
    id,
    started: true,
    engine: { known: true, status },
    moneyEntries,
    providerStatus,
  });
  const cards = checkLifecycles([
    card('ok', 'PAID', 1),
    card('review', 'NEEDS_REVIEW', 0, 'no answer: asked 3 times'),
    card('silent', 'NEEDS_REVIEW', 0),
    card('captured-but-failed', 'FAILED', 1),
  ]);
  expect(cards.problems).toEqual([
    'cardPayment silent: NEEDS_REVIEW without a reason',
    'cardPayment captured-but-failed: FAILED with 1 money entries at the provider',
  ]);
  expect(cards.reviewReasons).toEqual({ 'no answer': 1 });
  expect(
    checkLifecycles([
      infraction('accepted', 'ACCEPTED', 'ACCEPTED', 1),
      infraction('waiting', 'DEFENSE_SUBMITTED', 'WAITING_PSP', 0),
      infraction('missed', 'DEFENSE_SUBMITTED', 'ACCEPTED', 1),
      infraction('disagrees', 'REJECTED', 'CANCELLED', 0),
    ]).problems,
  ).toEqual([
    'infraction missed: still DEFENSE_SUBMITTED at the deadline',
    'infraction disagrees: REJECTED in the engine, CANCELLED at the provider',
  ]);
});

test('merchant events: at least once, one id and one body per event, signed; a missing one is lost', () => {
  const reception = (id: string, subject: string, more: Partial<Reception> = {}): Reception => ({
    id,
    type: 'charge.paid',
    subject,
    rawBody: `{"id":"${id}"}`,
    signatureValid: true,
    ...more,
  });
  const verdict = checkDeliveries(
    [
      ['charge.paid', 'a'],
      ['charge.paid', 'b'],
      ['charge.paid', 'c'],
      ['charge.paid', 'd'],
    ],
    [
      reception('evt_a', 'a'),
      reception('evt_a', 'a'),
      reception('evt_b1', 'b'),
      reception('evt_b2', 'b'),
      reception('evt_c', 'c', { signatureValid: false }),
    ],
  );
  expect(verdict).toMatchObject({
    expected: 4,
    delivered: 3,
    lost: 1,
    changedOnRetry: 1,
    badSignatures: 1,
    receptions: 5,
  });
  expect(verdict.problems).toEqual([
    'charge.paid of b: 2 attempts under 2 ids with 2 different bodies',
    'charge.paid of c: 1 attempts failed the signature check',
    'charge.paid of d: never received',
  ]);
});
