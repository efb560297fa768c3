/**
 * An operation that announces its event again (here: the run a reset to its first workflow task makes, which
 * runs the announcing local activity again) announces it under the same id: the engine keeps one event, the
 * merchant's endpoint receives it once, with one webhook-id. An id that changed from one announcement to the
 * next would start a second delivery, which a merchant de-duplicating by webhook-id could not recognise.
 */
import { randomBytes } from 'node:crypto';
import type { EventResponse } from '../../src/api/merchant-events/schemas';
import { pollUntil } from '../../src/util/poll';
import type { MerchantEventType } from '../../src/merchant-events/merchant-event';
import { chargeWorkflowId } from '../../src/contracts/charge';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { createCharge, payCashIn } from '../helpers/charges';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, postPayout, waitForPayout } from '../helpers/payouts';
import { resetAndWait } from '../helpers/workflow-reset';
import { startWebhookReceiver, type WebhookReceiver } from '../../tools/stack/webhook-receiver';

let stack: EngineHarness;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // The receiver listens on loopback (allowed by the setting, never in production); a paid charge closes 2 s after it is paid.
  stack = await startEngineHarness({
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    CASH_IN_LATE_PAYMENT_WINDOW_MS: '2000',
    CASH_IN_REFUND_WINDOW_MS: '2000',
  });
  receiver = await startWebhookReceiver();
  const registered = await stack.api('POST', '/v1/webhook-endpoints', {
    url: receiver.url,
    events: ['payout.completed', 'charge.paid'],
  });
  expect(registered.status).toBe(201);
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

const closed = (workflowId: string) =>
  pollUntil(
    async () =>
      (await stack.temporal.client.workflow.getHandle(workflowId).describe()).status.name === 'COMPLETED'
        ? true
        : undefined,
    {
      timeoutMs: 30_000,
      intervalMs: 200,
      description: `${workflowId} to complete`,
    },
  );

/** The events of `type` the operation announced (kept by id in the engine's read model), once each is delivered. */
async function deliveredEvents(sourceId: string, type: MerchantEventType): Promise<string[]> {
  const ids = (await stack.readModel.eventsOf(sourceId))
    .filter((event) => event.type === type)
    .map((event) => event.id);
  for (const id of ids) {
    await pollUntil(
      async () => {
        const answer = await stack.api<EventResponse>('GET', `/v1/events/${id}`);
        return answer.status === 200 && answer.body.status === 'DELIVERED' ? true : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, description: `event ${id} DELIVERED` },
    );
  }
  return ids;
}

/** What the endpoint received about one operation: each delivery's webhook-id. */
const webhookIdsReceived = (externalId: string, type: MerchantEventType): string[] =>
  receiver.received
    .filter((delivery) => delivery.event.type === type && delivery.event.data.externalId === externalId)
    .map((delivery) => String(delivery.headers['webhook-id']));

/** Announced once before the reset and again by the run it makes: one event, one delivery, one webhook-id. */
async function expectOneDeliveryAcrossReset(
  workflowId: string,
  externalId: string,
  type: MerchantEventType,
): Promise<void> {
  await closed(workflowId);
  const [before] = await deliveredEvents(workflowId, type);
  expect(webhookIdsReceived(externalId, type)).toEqual([before]);

  expect(await resetAndWait(stack, workflowId, { type: 'FirstWorkflowTask' })).toBe('COMPLETED');
  // The run the reset made has closed: whatever it announced is in the read model, and is waited for until delivered.
  expect(await deliveredEvents(workflowId, type)).toEqual([before]);
  expect(webhookIdsReceived(externalId, type)).toEqual([before]);
}

test('a completed payout reset to its first workflow task: payout.completed is delivered once, under one webhook-id', async () => {
  const externalId = newExternalId('event-reset');
  await postPayout(stack, { externalId, amount: 12.34, pixKey: 'ana@example.com', keyType: 'EMAIL' });
  await waitForPayout(stack, externalId, ['COMPLETED']);
  await expectOneDeliveryAcrossReset(payoutWorkflowId(externalId), externalId, 'payout.completed');
}, 120_000);

test('a paid charge reset to its first workflow task: charge.paid is delivered once, under one webhook-id', async () => {
  const externalId = `eventreset${randomBytes(5).toString('hex')}`;
  await createCharge(stack, externalId, 25.5);
  await payCashIn(stack, externalId);
  await expectOneDeliveryAcrossReset(chargeWorkflowId(externalId), externalId, 'charge.paid');
}, 120_000);
