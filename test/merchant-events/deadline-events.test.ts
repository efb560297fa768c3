/**
 * Events for what has a deadline or needs a person, through the real stack with an endpoint registered: an
 * infraction opened (with its defense deadline) and due soon (its lead time before the deadline, once, by the
 * workflow's durable timer), a payout in review (with why) that then completes with its PIX end-to-end id, and a
 * card payment in review. Each event's id derives from the operation and the move, as every event's does.
 */
import { pollUntil } from '../../src/util/poll';
import type { MerchantEvent } from '../../src/merchant-events/merchant-event';
import { merchantEventId } from '../../src/merchant-events/event-id';
import { merchantEventPayloadSchemas } from '../../src/merchant-events/event-payloads';
import { cardPaymentWorkflowId } from '../../src/contracts/card-payment';
import { infractionWorkflowId } from '../../src/contracts/infraction';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { createCardPayment, startAuthorization } from '../card-payments/card-checkout';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { openInfractionOnPaidCashIn, waitForInfraction } from '../helpers/infractions';
import { forceOutcome } from '../helpers/charges';
import { newExternalId, postPayout, waitForPayout } from '../helpers/payouts';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';
import { startWebhookReceiver, type WebhookReceiver } from '../../tools/stack/webhook-receiver';

const DAY_MS = 86_400_000;
/** The sandbox gives 7 days to defend: due soon 10 s after the infraction is opened. */
const DUE_SOON_LEAD_MS = 7 * DAY_MS - 10_000;

let stack: EngineHarness;
let receiver: WebhookReceiver;
beforeAll(async () => {
  stack = await startEngineHarness({
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    INFRACTION_DUE_SOON_LEAD_MS: String(DUE_SOON_LEAD_MS),
    PAYOUT_REVIEW_AFTER_MS: '3000',
    CARD_AUTHORIZE_DEADLINE_MS: '1000',
  });
  receiver = await startWebhookReceiver();
  const types = [
    'infraction.opened',
    'infraction.due_soon',
    'payout.needs_review',
    'payout.completed',
    'card_payment.needs_review',
  ];
  expect((await stack.api('POST', '/v1/webhook-endpoints', { url: receiver.url, events: types })).status).toBe(201);
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

/** The events received so far of `type` whose data has `field` = `value`. */
const received = (type: string, field: string, value: string): MerchantEvent[] =>
  receiver.received
    .map((request) => request.event)
    .filter((event) => event.type === type && event.data[field] === value);

/** The event as a merchant's typed receiver reads it: its type's payload schema, strict. */
function readAs(event: MerchantEvent): unknown {
  return merchantEventPayloadSchemas[event.type].parse(event.data);
}

/**
 * The first event of `type` whose data has `field` = `value`, once received. A merchant's typed receiver reads its
 * data as sent; where `from` names the workflow and the seq of its event, its id is the one that workflow gives it.
 */
async function eventOf(
  type: MerchantEvent['type'],
  field: string,
  value: string,
  { from, timeoutMs = 30_000 }: { from?: [sourceId: string, seq: number]; timeoutMs?: number } = {},
): Promise<MerchantEvent> {
  const event = await pollUntil(() => received(type, field, value)[0], {
    timeoutMs,
    intervalMs: 100,
    description: `${type} for ${value}`,
  });
  expect(readAs(event)).toEqual(event.data);
  if (from) expect(event.id).toBe(merchantEventId(from[0], type, from[1]));
  return event;
}

test('an infraction is announced opened with its defense deadline, then due soon once, its lead time before the deadline', async () => {
  const infractionId = await openInfractionOnPaidCashIn(stack, 80);
  const open = await waitForInfraction(stack, infractionId, ['OPEN', 'DUE_SOON']);

  const opened = await eventOf('infraction.opened', 'infractionId', infractionId, {
    from: [infractionWorkflowId(infractionId), 0],
  });
  expect(opened.data).toEqual({
    object: 'infraction',
    infractionId,
    status: 'OPEN',
    amount: 80,
    providerTransactionId: open.transactionId,
    defenseDeadline: open.deadline,
  });

  // The workflow's timer fires DUE_SOON_LEAD_MS before the deadline, 10 s after the provider opened it.
  const dueSoon = await eventOf('infraction.due_soon', 'infractionId', infractionId, {
    from: [infractionWorkflowId(infractionId), 1],
    timeoutMs: 40_000,
  });
  expect(dueSoon.data).toMatchObject({ status: 'DUE_SOON', defenseDeadline: open.deadline });
  expect(Date.parse(dueSoon.createdAt)).toBeGreaterThanOrEqual(Date.parse(open.deadline ?? '') - DUE_SOON_LEAD_MS);

  // Later syncs bring nothing new: sent once, each.
  await stack.api('POST', '/v1/infractions/sync');
  await waitForInfraction(stack, infractionId, ['DUE_SOON']);
  expect([
    received('infraction.opened', 'infractionId', infractionId).length,
    received('infraction.due_soon', 'infractionId', infractionId).length,
  ]).toEqual([1, 1]);

  expect(
    (await stack.admin('POST', `/sandbox/infractions/${infractionId}/resolve`, { status: 'CANCELLED' })).status,
  ).toBe(200);
  await waitForInfraction(stack, infractionId, ['CANCELLED']);
  await recordHistory(
    stack.temporal.client,
    infractionWorkflowId(infractionId),
    'infraction-opened-due-soon-cancelled',
  );
}, 90_000);

test('a payout in review is announced with the reason; once settled it completes with its PIX end-to-end id', async () => {
  const externalId = newExternalId('review');
  // Amounts ending in .14 stay PROCESSING at the sandbox: no outcome before the review deadline (3 s here).
  await postPayout(stack, { externalId, amount: 10.14, pixKey: '52998224725', keyType: 'CPF' });
  const review = await eventOf('payout.needs_review', 'externalId', externalId, {
    from: [payoutWorkflowId(externalId), 2],
  });
  // Its externalId is the one asked (eventOf finds it by that).
  expect(review.data).toMatchObject({
    object: 'payout',
    status: 'NEEDS_REVIEW',
    amount: 10.14,
    reviewReason: 'no confirmed outcome before the review deadline',
  });
  expect(review.data).not.toHaveProperty('endToEndId');

  expect(await forceOutcome(stack, externalId, { status: 'COMPLETED' })).toBe(200);
  const completed = await waitForPayout(stack, externalId, ['COMPLETED', 'FAILED']);
  expect(completed.endToEndId).toMatch(/^E\d{8}\d{12}[0-9a-f]{11}$/);
  const event = await eventOf('payout.completed', 'externalId', externalId);
  expect(event.data).toMatchObject({ status: 'COMPLETED', endToEndId: completed.endToEndId });
  expect(received('payout.needs_review', 'externalId', externalId)).toHaveLength(1);
  await recordHistory(
    stack.temporal.client,
    payoutWorkflowId(externalId),
    currentPayoutHistory('review-announced-completed'),
  );
});

test('a card payment whose provider answer never reached it is announced in review, with the reason', async () => {
  const created = await createCardPayment(stack, 'card-review-event');
  // The checkout's first step, then a "crash": the workflow never hears what the provider answered.
  await startAuthorization(stack, created.externalId);
  const review = await eventOf('card_payment.needs_review', 'externalId', created.externalId);
  expect(review.data).toMatchObject({
    object: 'card_payment',
    externalId: created.externalId,
    status: 'NEEDS_REVIEW',
    amount: 100.1,
    brand: 'VISA',
    last4: '1111',
  });
  expect(review.data.reviewReason).toMatch(/did not reach the payment in time/);
  expect(
    (await stack.api('POST', `/v1/card-payments/${created.externalId}/close`, { reason: 'no charge at the provider' }))
      .status,
  ).toBe(200);
  await recordHistory(
    stack.temporal.client,
    cardPaymentWorkflowId(created.externalId),
    'card-payment-review-announced-closed',
  );
});
