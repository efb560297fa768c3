/**
 * The `data` a merchant's receiver reads (src/merchant-events/event-payloads.ts): what the workflows build for
 * every event type fits its type's schema, in each state it announces; a field or object the engine does not
 * send is refused, so the schema cannot drift wider than the events.
 */
import { engineOpenApi } from '../../src/api/openapi-document';
import { batchAnnouncement } from '../../src/batches/batch-event';
import type { BatchSummary } from '../../src/batches/batch-store';
import type { CardPaymentView } from '../../src/contracts/card-payment';
import type { ChargeView } from '../../src/contracts/charge';
import type { InfractionView } from '../../src/contracts/infraction';
import type { PayoutView } from '../../src/contracts/payout';
import { merchantEventPayloadSchemas } from '../../src/merchant-events/event-payloads';
import { MERCHANT_EVENT_TYPES, type MerchantEventType } from '../../src/merchant-events/merchant-event';
import { cardPaymentEventData } from '../../workflows/card-payments/merchant-events';
import { chargeEventData } from '../../workflows/charges/merchant-events';
import { infractionEventData } from '../../workflows/infractions/merchant-events';
import { payoutEventData } from '../../workflows/payouts/merchant-events';

const payout = {
  externalId: 'order-1',
  method: 'pix_key',
  amountCents: 2550,
  feeCents: 125,
  totalCents: 2675,
  providerTransactionId: 'tx-1',
  endToEndId: 'E1234',
  failureReason: 'refused',
  reviewReason: 'no answer',
  batchId: 'b-1',
} as unknown as PayoutView;
const charge = {
  externalId: 'c-1',
  amountCents: 10_000,
  feeCents: 99,
  paidAt: '2026-11-28T10:00:00.000Z',
  providerTransactionId: 'tx-2',
  failureReason: 'expired at the provider',
  refunds: [{ amountCents: 2_500 }],
} as unknown as ChargeView;
const cardPayment = {
  externalId: 'cp-1',
  amountCents: 5_000,
  installmentCount: 3,
  brand: 'visa',
  last4: '4242',
  netValueCents: 4_800,
  providerPaymentId: 77,
  failureReason: 'declined',
  reviewReason: 'no answer',
} as unknown as CardPaymentView;
const infraction = {
  infractionId: 'inf-1',
  record: { amountCents: 10_000, transactionId: 'tx-2', defenseDeadline: '2026-12-05T10:00:00.000Z' },
  chargeExternalId: 'c-1',
  defense: { analise: 'NEGADA' },
} as unknown as InfractionView;
const batch = (control: string) =>
  ({
    batchId: 'b-1',
    total: 4,
    totalAmountCents: 400,
    paidAmountCents: 100,
    countsByState: Object.fromEntries(
      ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW'].map((state) => [
        state,
        { count: 1, amountCents: 100 },
      ]),
    ),
    control,
    finishedAt: new Date('2026-11-28T10:00:00Z'),
  }) as unknown as BatchSummary;

/** Each event type with the data its workflow sends. */
const sent: Record<MerchantEventType, Record<string, unknown>> = {
  'payout.completed': payoutEventData(payout, 'COMPLETED'),
  'payout.failed': payoutEventData(payout, 'FAILED'),
  'payout.cancelled': payoutEventData(payout, 'CANCELLED'),
  'payout.needs_review': payoutEventData(payout, 'NEEDS_REVIEW'),
  'payout_batch.completed': batchAnnouncement('batch:b-1', batch('RUNNING'), new Date()).data,
  'payout_batch.cancelled': batchAnnouncement('batch:b-1', batch('CANCELLED'), new Date()).data,
  'charge.paid': chargeEventData(charge, 'PAID'),
  'charge.expired': chargeEventData(charge, 'EXPIRED'),
  'charge.failed': chargeEventData(charge, 'FAILED'),
  'charge.partially_refunded': chargeEventData(charge, 'PARTIALLY_REFUNDED'),
  'charge.refunded': chargeEventData(charge, 'REFUNDED'),
  'card_payment.paid': cardPaymentEventData(cardPayment, 'PAID'),
  'card_payment.failed': cardPaymentEventData(cardPayment, 'FAILED'),
  'card_payment.expired': cardPaymentEventData(cardPayment, 'EXPIRED'),
  'card_payment.needs_review': cardPaymentEventData(cardPayment, 'NEEDS_REVIEW'),
  'infraction.opened': infractionEventData(infraction, 'OPEN'),
  'infraction.due_soon': infractionEventData(infraction, 'DUE_SOON'),
  'infraction.accepted': infractionEventData(infraction, 'ACCEPTED'),
  'infraction.rejected': infractionEventData(infraction, 'REJECTED'),
  'infraction.cancelled': infractionEventData(infraction, 'CANCELLED'),
};

test.each(MERCHANT_EVENT_TYPES.map((type) => [type]))(
  'what the engine sends as %s, every field known, fits its schema',
  (type) => {
    expect(merchantEventPayloadSchemas[type].parse(sent[type])).toEqual(sent[type]);
  },
);

test("each type's schema is its own kind of operation: another operation's data, or a field none sends, is refused", () => {
  const objects = new Map<string, Record<string, unknown>>(
    MERCHANT_EVENT_TYPES.map((type) => [String(sent[type].object), sent[type]]),
  );
  expect([...objects.keys()].sort()).toEqual(['card_payment', 'charge', 'infraction', 'payout', 'payout_batch']);
  for (const type of MERCHANT_EVENT_TYPES) {
    const schema = merchantEventPayloadSchemas[type];
    for (const [object, data] of objects)
      expect({ type, object, fits: schema.safeParse(data).success }).toEqual({
        type,
        object,
        fits: object === sent[type].object,
      });
    expect(schema.safeParse({ ...sent[type], destination: 'a PIX key' }).success).toBe(false);
    expect(schema.safeParse({ ...sent[type], status: 'PENDING' }).success).toBe(false);
  }
});

test('amounts are numbers of reais and counts whole numbers, as sent', () => {
  expect(
    merchantEventPayloadSchemas['payout.completed'].safeParse({ ...sent['payout.completed'], amount: '25.50' }).success,
  ).toBe(false);
  expect(
    merchantEventPayloadSchemas['payout_batch.completed'].safeParse({ ...sent['payout_batch.completed'], failed: 1.5 })
      .success,
  ).toBe(false);
  expect(
    merchantEventPayloadSchemas['card_payment.paid'].safeParse({ ...sent['card_payment.paid'], installmentCount: 1.5 })
      .success,
  ).toBe(false);
});

test("the OpenAPI document names each kind of data (a generated client's type) and says what a merchant could misread", () => {
  const schemas = (engineOpenApi().components?.schemas ?? {}) as Record<
    string,
    { properties?: Record<string, { description?: string; format?: string }> }
  >;
  const field = (component: string, name: string) => schemas[component]?.properties?.[name];
  // Amounts are reais, not centavos; times RFC 3339.
  for (const [component, names] of [
    ['PayoutEventData', ['amount']],
    ['PayoutBatchEventData', ['totalAmount', 'paidAmount']],
    ['ChargeEventData', ['amount', 'fee', 'netAmount', 'refundedAmount']],
    ['CardPaymentEventData', ['amount', 'netValue']],
    ['InfractionEventData', ['amount']],
  ] as const)
    for (const name of names)
      expect({ component, name, description: field(component, name)?.description }).toEqual({
        component,
        name,
        description: 'reais',
      });
  expect(field('ChargeEventData', 'paidAt')).toMatchObject({ format: 'date-time', description: 'RFC 3339, UTC' });
  expect(field('InfractionEventData', 'defenseDeadline')).toMatchObject({ format: 'date-time' });
  // The fields whose meaning is not in their name are explained.
  for (const [component, name] of [
    ['PayoutEventData', 'fee'],
    ['PayoutEventData', 'total'],
    ['PayoutEventData', 'endToEndId'],
    ['PayoutEventData', 'reviewReason'],
    ['CardPaymentEventData', 'reviewReason'],
    ['InfractionEventData', 'defenseDeadline'],
    ['InfractionEventData', 'defense'],
  ] as const)
    expect({ component, name, explained: (field(component, name)?.description ?? '').length > 10 }).toEqual({
      component,
      name,
      explained: true,
    });
});
