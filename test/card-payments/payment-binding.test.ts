/**
 * The card binding on its own (workflows/card-payments/payment-binding.ts, a pure module): which payment endpoint 3
 * reports may settle an order under each of the three rules a payment's history keeps, with the reasons an operator
 * reads in the review; what endpoint 3 adds to the order's view; and which final state its status settles.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import {
  bindingProblems,
  CARD_PAYMENT_ANSWER_BINDING_PATCH,
  CARD_PAYMENT_BINDING_PATCH,
  finalOutcome,
  reportedDetails,
  type FoundPayment,
} from '../../workflows/card-payments/payment-binding';
import type { CardOrder } from '../../src/card-payments/card-payment-request';
import { HISTORIES_DIR } from '../helpers/record-history';

const order: CardOrder = {
  externalId: 'order-7',
  amountCents: 15_000,
  installmentCount: 3,
  payer: { name: 'Ana', email: 'ana@example.com', document: '12345678909', phone: '5511999998888' },
};
const paid = (fields: Partial<FoundPayment> = {}): FoundPayment => ({
  kind: 'found',
  status: 'COMPLETED',
  externalReference: 'order-7',
  amountCents: 15_000,
  installmentCount: 3,
  ...fields,
});
const without = (field: 'externalReference' | 'installmentCount'): FoundPayment => {
  const { [field]: _dropped, ...rest } = paid();
  return rest;
};

const ANOTHER_ORDER = 'at the provider belongs to another order';
const OTHER_AMOUNT = "is of 100, not the order's 150";
const OTHER_INSTALLMENTS = "is in 12 installments, not the order's 3";

describe('before the binding patch (reference-when-shown): only a reference naming another order refuses', () => {
  const rule = 'reference-when-shown';
  test("the order's own payment, or one without a reference, settles it, whatever its amount and installments", () => {
    expect(bindingProblems(paid(), order, rule)).toEqual([]);
    expect(bindingProblems(without('externalReference'), order, rule)).toEqual([]);
    expect(bindingProblems(paid({ amountCents: 10_000, installmentCount: 12 }), order, rule)).toEqual([]);
  });
  test("another order's payment is refused, and says so", () => {
    expect(bindingProblems(paid({ externalReference: 'order-8' }), order, rule)).toEqual([ANOTHER_ORDER]);
  });
});

describe('with the binding patch (reference-amount-installments): all three shown, and the order’s', () => {
  const rule = 'reference-amount-installments';
  test("the order's own payment settles it", () => {
    expect(bindingProblems(paid(), order, rule)).toEqual([]);
  });
  test('each difference is named, in the order reference, amount, installments', () => {
    expect(
      bindingProblems(paid({ externalReference: 'order-8', amountCents: 10_000, installmentCount: 12 }), order, rule),
    ).toEqual([ANOTHER_ORDER, OTHER_AMOUNT, OTHER_INSTALLMENTS]);
    expect(bindingProblems(paid({ amountCents: 10_000 }), order, rule)).toEqual([OTHER_AMOUNT]);
    expect(bindingProblems(paid({ installmentCount: 12 }), order, rule)).toEqual([OTHER_INSTALLMENTS]);
  });
  test('a payment that does not show its reference or its installments is refused: nothing shows it is this order’s', () => {
    expect(bindingProblems(without('externalReference'), order, rule)).toEqual([
      'at the provider names no order (externalReference)',
    ]);
    expect(bindingProblems(without('installmentCount'), order, rule)).toEqual([
      "is in an unreported number of installments, not the order's 3",
    ]);
  });
});

describe('with the answer-binding patch (amount-and-what-is-shown): the amount, and the rest where shown', () => {
  const rule = 'amount-and-what-is-shown';
  test("the order's own payment settles it, also when endpoint 3 shows only its status and amount", () => {
    expect(bindingProblems(paid(), order, rule)).toEqual([]);
    expect(bindingProblems(without('externalReference'), order, rule)).toEqual([]);
    expect(bindingProblems(without('installmentCount'), order, rule)).toEqual([]);
  });
  test('another amount, a reference naming another order, or other installments shown are each refused and named', () => {
    expect(bindingProblems(paid({ amountCents: 10_000 }), order, rule)).toEqual([OTHER_AMOUNT]);
    expect(bindingProblems(paid({ externalReference: 'order-8' }), order, rule)).toEqual([ANOTHER_ORDER]);
    expect(bindingProblems(paid({ installmentCount: 12 }), order, rule)).toEqual([OTHER_INSTALLMENTS]);
    expect(
      bindingProblems(paid({ externalReference: 'order-8', amountCents: 10_000, installmentCount: 12 }), order, rule),
    ).toEqual([ANOTHER_ORDER, OTHER_AMOUNT, OTHER_INSTALLMENTS]);
  });
});

/** The patch ids a recorded history's markers carry. */
const recordedPatches = (file: string): string[] =>
  temporal.api.history.v1.History.decode(readFileSync(path.join(HISTORIES_DIR, file))).events.flatMap((event) => {
    const marker = event.markerRecordedEventAttributes;
    const data = marker?.markerName === 'core_patch' ? marker.details?.['patch-data']?.payloads?.[0]?.data : undefined;
    return data ? [(JSON.parse(Buffer.from(data).toString()) as { id: string }).id] : [];
  });

test('the patch ids are the ones recorded payments carry, so that each replays under its own rule', () => {
  expect(recordedPatches('card-payment-bound-after-refusals.binpb')).toContain(CARD_PAYMENT_BINDING_PATCH);
  expect(recordedPatches('card-payment-answer-binding-paid.binpb')).toContain(CARD_PAYMENT_ANSWER_BINDING_PATCH);
});

describe("what endpoint 3 adds to the order's view", () => {
  test('the card, the net value and the provider’s own status when shown; nothing it did not show', () => {
    expect(
      reportedDetails(paid({ brand: 'VISA', last4: '4242', netValueCents: 14_400, providerStatus: 'APPROVED' })),
    ).toEqual({ brand: 'VISA', last4: '4242', netValueCents: 14_400, providerStatus: 'APPROVED' });
    // What endpoint 3 did not show keeps what the checkout said (no field set to nothing over it).
    const checkout = { brand: 'MASTERCARD', last4: '5454', netValueCents: 14_000, providerStatus: 'AUTHORIZED' };
    expect({ ...checkout, ...reportedDetails(paid()) }).toEqual(checkout);
    expect({ ...checkout, ...reportedDetails(paid({ providerStatus: '' })) }).toEqual(checkout);
  });
});

describe('the final state endpoint 3’s status settles', () => {
  test('COMPLETED pays, with the provider’s status in the cause when shown', () => {
    expect(finalOutcome(paid({ providerStatus: 'APPROVED' }))).toEqual({
      state: 'PAID',
      cause: 'payment check: COMPLETED (APPROVED)',
    });
    expect(finalOutcome(paid())).toEqual({ state: 'PAID', cause: 'payment check: COMPLETED' });
  });
  test('FAILED fails with the reason a merchant reads: the issuer’s decline, or what the provider reported', () => {
    expect(finalOutcome(paid({ status: 'FAILED', providerStatus: 'DECLINED' }))).toEqual({
      state: 'FAILED',
      cause: 'payment check: FAILED (DECLINED)',
      failureReason: 'declined by the card issuer',
    });
    expect(finalOutcome(paid({ status: 'FAILED', providerStatus: 'EXPIRED' }))).toEqual({
      state: 'FAILED',
      cause: 'payment check: FAILED (EXPIRED)',
      failureReason: 'the provider reported EXPIRED',
    });
    expect(finalOutcome(paid({ status: 'FAILED' }))).toEqual({
      state: 'FAILED',
      cause: 'payment check: FAILED',
      failureReason: 'the provider reported FAILED',
    });
  });
  test('any other status leaves the payment open', () => {
    expect(finalOutcome(paid({ status: 'PENDING' }))).toBeUndefined();
  });
});
