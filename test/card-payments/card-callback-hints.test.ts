/**
 * An unsigned PAYMENT_UPDATED callback is a hint: anyone can send one. Whatever payment id it names, the workflow
 * never takes it as its payment; the id comes from the provider's own word (endpoint 2's answer, through the
 * checkout), or an operator. So a callback naming a wrong payment, arriving before the buyer paid, cannot stall the
 * order the buyer then pays; and one naming a payment, even the right one, settles nothing by itself.
 */
import { paymentApiClient } from '../../src/engine/payment-api-client';
import { pollUntil } from '../../src/util/poll';
import { TEST_CARDS } from '../../sandbox/products/card-payments/test-cards';
import { cardPaymentWorkflowId } from '../../src/contracts/card-payment';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { httpCall } from '../helpers/http';
import { recordHistory } from '../helpers/record-history';
import {
  chargeAtProvider,
  createCardPayment,
  payAtCheckout,
  waitForCardPayment,
  recheckCardPayment,
  startAuthorization,
} from './card-checkout';

let stack: EngineHarness;

beforeAll(async () => {
  stack = await startEngineHarness({ PROVIDER_CALLBACK_SIGNATURES: 'optional', CARD_AUTHORIZE_DEADLINE_MS: '2000' });
});
afterAll(() => stack?.close());

/** A PAYMENT_UPDATED callback without signature headers, naming `externalId`'s order and the payment `id`. */
function unsignedCallback(externalId: string, id: number) {
  return httpCall(`${stack.apiUrl}/callbacks/card`, {
    body: {
      id,
      type: 'Card',
      status: 'COMPLETED',
      providerStatus: 'PAID',
      eventType: 'PAYMENT_UPDATED',
      amount: 100.1,
      externalReference: externalId,
      note: 'status_updated',
    },
  });
}

test('an unsigned callback naming a payment the provider does not have, sent before the buyer pays: the order is PAID by its own payment', async () => {
  const created = await createCardPayment(stack, 'card-hint-wrong-id');
  expect((await unsignedCallback(created.externalId, 987_654_321)).status).toBe(200);

  const paid = await payAtCheckout(stack, created, TEST_CARDS.frictionless);
  expect(paid.status).toBe(200);
  const settled = await waitForCardPayment(stack, created.externalId, ['PAID'], 30_000);
  expect(settled).toMatchObject({ status: 'PAID', last4: '1000' });
  expect(settled.providerPaymentId).not.toBe(987_654_321);
  expect(settled.callbacksReceived).toBeGreaterThanOrEqual(1);
  await recordHistory(
    stack.temporal.client,
    cardPaymentWorkflowId(created.externalId),
    'card-payment-answer-binding-unsigned-hint-paid',
  );
});

test("an unsigned callback naming the order's own payment, while the order is in review without it, settles nothing; the operator who names it does", async () => {
  const created = await createCardPayment(stack, 'card-hint-right-id', { amount: 20 });
  // The checkout took the card and "crashed" before calling the provider: no answer, no record, review by the deadline.
  await startAuthorization(stack, created.externalId);
  await waitForCardPayment(stack, created.externalId, ['NEEDS_REVIEW']);
  const { data } = await chargeAtProvider(stack, created.externalId, 20);
  await waitForProviderStatus(data.id, 'COMPLETED');

  expect((await unsignedCallback(created.externalId, data.id)).status).toBe(200);
  // Updates and signals are taken in order: this recheck is answered once the callback was.
  const after = await recheckCardPayment(stack, created.externalId);
  expect(after.body).toMatchObject({ status: 'NEEDS_REVIEW', callbacksReceived: 1, checksMade: 0 });
  expect(after.body.providerPaymentId).toBeUndefined();

  const named = await recheckCardPayment(stack, created.externalId, data.id);
  expect(named.body).toMatchObject({ status: 'PAID', providerPaymentId: data.id });
});

/** Until the provider settled the payment (SANDBOX_SETTLE_MS). */
async function waitForProviderStatus(id: number, status: string): Promise<void> {
  const client = paymentApiClient(stack.config);
  await pollUntil(async () => ((await client.getCardPayment(id)).data.status === status ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 100,
    description: `payment ${id} to be ${status}`,
  });
}
