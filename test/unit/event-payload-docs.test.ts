/**
 * The webhooks of the engine's document describe the events the engine really sends: a payout's and a batch's data,
 * built by the code that builds them for delivery, fit the documented payload of their types.
 */
import { eventPayloadSchema } from '../../src/api/merchant-events/event-payloads';
import { batchAnnouncement } from '../../src/batches/batch-event';
import type { BatchSummary } from '../../src/batches/batch-store';
import type { MerchantEventType } from '../../src/merchant-events/merchant-event';
import { payoutEventData } from '../../workflows/payouts/merchant-events';
import type { PayoutView } from '../../src/contracts/payout';

const event = (type: MerchantEventType, data: Record<string, unknown>) => ({
  id: `evt_${'a'.repeat(24)}`,
  type,
  createdAt: '2026-11-27T12:00:00.000Z',
  data,
});

test("a failed payout's event fits payout.failed's documented payload; a mistyped amount does not", () => {
  const view = {
    externalId: 'order-1',
    method: 'pix_key',
    state: 'FAILED',
    amountCents: 2550,
    feeCents: 0,
    totalCents: 2550,
    failureReason: 'refused',
    batchId: 'b-1',
  } as PayoutView;
  const data = payoutEventData(view, 'FAILED');
  expect(eventPayloadSchema('payout.failed').safeParse(event('payout.failed', data)).success).toBe(true);
  expect(
    eventPayloadSchema('payout.failed').safeParse(event('payout.failed', { ...data, amount: '25.50' })).success,
  ).toBe(false);
});

test("a finished batch's event fits payout_batch.completed's documented payload", () => {
  const counts = Object.fromEntries(
    ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW'].map((state) => [
      state,
      { count: 1, amountCents: 100 },
    ]),
  );
  const summary = {
    batchId: 'b-1',
    total: 6,
    totalAmountCents: 600,
    paidAmountCents: 100,
    countsByState: counts,
    control: 'RUNNING',
    finishedAt: new Date('2026-11-27T12:00:00Z'),
  } as unknown as BatchSummary;
  const announced = batchAnnouncement('batch:b-1', summary, new Date());
  expect(eventPayloadSchema(announced.type).safeParse(event(announced.type, announced.data)).success).toBe(true);
});
