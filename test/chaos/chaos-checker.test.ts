/** The chaos run's checker on made-up evidence: each kind of problem is found, and only where it is. */
import { checkTrial, type LedgerEntryView, type ListedItem, type PayoutReading } from '../../tools/chaos/checker';

const debit = (externalId: string): LedgerEntryView => ({
  externalId,
  lines: [
    { account: 'user:merchant', amountCents: -1_050 },
    { account: 'pix-out:pending', amountCents: 1_000 },
    { account: 'fees', amountCents: 50 },
  ],
});
const settle = (externalId: string): LedgerEntryView => ({
  externalId,
  lines: [
    { account: 'pix-out:pending', amountCents: -1_000 },
    { account: 'pix-out:settled', amountCents: 1_000 },
  ],
});
const refund = (externalId: string): LedgerEntryView => ({
  externalId,
  lines: [
    { account: 'pix-out:pending', amountCents: -1_000 },
    { account: 'fees', amountCents: -50 },
    { account: 'user:merchant', amountCents: 1_050 },
  ],
});
const seed: LedgerEntryView = {
  externalId: null,
  lines: [
    { account: 'equity:seed', amountCents: -100 },
    { account: 'user:merchant', amountCents: 100 },
  ],
};

function check(
  items: ListedItem[] | undefined,
  ledger: LedgerEntryView[],
  payouts: Record<string, PayoutReading> = {},
  submitted = items?.map((item) => item.externalId) ?? [],
) {
  return checkTrial({
    submitted,
    items,
    ledger: [seed, ...ledger],
    merchantAccount: 'user:merchant',
    transfers: new Map([
      ['it_1', 'moved'],
      ['it_2', 'moved-twice'],
      ['it_3', 'moved-twice'],
    ]),
    payouts: new Map(Object.entries(payouts)),
    neverSettling: new Set(['review']),
  });
}

test('a clean trial: paid once, failed and refunded, refused before any debit, in review with a reason', () => {
  const verdict = check(
    [
      { externalId: 'paid', status: 'COMPLETED' },
      { externalId: 'refunded', status: 'FAILED' },
      { externalId: 'refused', status: 'FAILED' },
      { externalId: 'cancelled', status: 'CANCELLED' },
      { externalId: 'review', status: 'NEEDS_REVIEW' },
    ],
    [debit('paid'), settle('paid'), debit('refunded'), refund('refunded'), debit('review')],
    { review: { known: true, reviewReason: 'no confirmed outcome before the review deadline' } },
  );
  expect(verdict).toEqual({
    payouts: 5,
    completed: 1,
    failed: 2,
    cancelled: 1,
    needsReview: 1,
    needsReviewNeverSettled: 1,
    doubleDebits: 0,
    lost: 0,
    stuckWithoutReason: 0,
    ledgerMismatches: 0,
    reviewReasons: { 'no confirmed outcome before the review deadline': 1 },
    problems: [],
  });
});

test('a second debit of the same externalId is a double debit, whatever the engine says', () => {
  const verdict = check(
    [
      { externalId: 'twice', status: 'COMPLETED' },
      { externalId: 'review', status: 'NEEDS_REVIEW' },
    ],
    [debit('twice'), debit('twice'), settle('twice'), debit('review'), debit('review')],
    { review: { known: true, reviewReason: 'submission deadline passed' } },
  );
  expect(verdict).toMatchObject({ doubleDebits: 2, completed: 1, needsReview: 1 });
  expect(verdict.problems).toEqual([
    'twice: 2 debits at the provider',
    expect.stringMatching(/^twice: COMPLETED with 2 net debits/),
    'review: 2 debits at the provider',
  ]);
});

test('an accepted item missing from its batch, or started but unknown to the engine, is lost; so is every item of an unknown batch', () => {
  const verdict = check(
    [
      { externalId: 'here', status: 'COMPLETED' },
      { externalId: 'ghost', status: 'STARTED' },
    ],
    [debit('here'), settle('here')],
    { ghost: { known: false } },
    ['here', 'ghost', 'gone'],
  );
  expect(verdict).toMatchObject({ lost: 2, completed: 1, stuckWithoutReason: 0 });
  expect(verdict.problems).toEqual([
    'ghost: STARTED in its batch but unknown to the engine',
    'gone: missing from the batch item list',
  ]);

  expect(check(undefined, [], {}, ['a', 'b'])).toMatchObject({
    payouts: 2,
    lost: 2,
    problems: ['a: the engine does not know its batch', 'b: the engine does not know its batch'],
  });
});

test('an item still pending or started at the deadline, or in review without a reason, is stuck without a reason', () => {
  const verdict = check(
    [
      { externalId: 'pending', status: 'PENDING' },
      { externalId: 'started', status: 'STARTED' },
      { externalId: 'silent', status: 'NEEDS_REVIEW' },
    ],
    [debit('started')],
    { pending: { known: false }, started: { known: true }, silent: { known: true } },
  );
  expect(verdict).toMatchObject({ stuckWithoutReason: 3, lost: 0, needsReview: 0 });
});

test('a final state that contradicts the money is a ledger mismatch', () => {
  const verdict = check(
    [
      { externalId: 'unpaid', status: 'COMPLETED' },
      { externalId: 'kept', status: 'FAILED' },
      { externalId: 'taken', status: 'CANCELLED' },
    ],
    [debit('kept'), debit('taken'), settle('taken')],
  );
  expect(verdict).toMatchObject({ ledgerMismatches: 3, doubleDebits: 0, completed: 1, failed: 1, cancelled: 1 });
  expect(verdict.problems).toEqual([
    'unpaid: COMPLETED with 0 net debits at the provider',
    'kept: FAILED with 1 net debits at the provider',
    'taken: CANCELLED with 1 net debits at the provider',
  ]);
});

/** An internal transfer: no external_id at the provider, the merchant's account debited and the recipient's credited at once. */
const transfer = (operationId: string): LedgerEntryView => ({
  externalId: null,
  operationId,
  lines: [
    { account: 'user:merchant', amountCents: -1_000 },
    { account: 'user:recipient', amountCents: 1_000 },
  ],
});

test("internal transfers count by the item their description names, on the merchant's account only: once is paid, twice is a double debit", () => {
  const verdict = check(
    [
      { externalId: 'moved', status: 'COMPLETED' },
      { externalId: 'moved-twice', status: 'COMPLETED' },
    ],
    [transfer('it_1'), transfer('it_2'), transfer('it_3'), transfer('it_unknown')],
  );
  expect(verdict).toMatchObject({
    completed: 2,
    doubleDebits: 1,
    ledgerMismatches: 1,
    problems: ['moved-twice: 2 debits at the provider', 'moved-twice: COMPLETED with 2 net debits at the provider'],
  });
});
