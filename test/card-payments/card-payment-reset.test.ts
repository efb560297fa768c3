/**
 * Card payments reset with the real CLI to their first task, their last task and every workflow task a
 * reset can reach. No workflow calls the card authorization (endpoint 2): the API's checkout does, once,
 * and only while the workflow awaits a card. A reset re-applies the checkout's update and the provider's
 * answer (Temporal's default), so the new run is past AWAITING_CARD, re-reads the payment (endpoint 3) and
 * the checkout refuses a second card: one authorization per payment, whatever the point. A run that does
 * reach AWAITING_CARD again (a workflow started anew for the order) finds the authorization's intent claimed
 * by the earlier one and sends no card. The engine reaches the sandbox through a recording proxy.
 */
import { randomBytes } from 'node:crypto';
import type { CardPaymentResponse } from '../../src/api/card-payments/schemas';
import { cardAuthorizationKey } from '../../src/card-payments/card-authorization-intent';
import { cardPaymentWorkflowId } from '../../src/contracts/card-payment';
import { chargeAtProvider, createCardPayment, payAtCheckout, waitForCardPayment } from './card-checkout';
import { paidCardPayment, sendCardToCheckout } from '../../tools/cluster/lifecycles';
import { StackClient } from '../../tools/cluster/stack-client';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import {
  describePoint,
  nthResettableTask,
  resetAndWait,
  resettableWorkflowTasks,
  type ResetPoint,
} from '../helpers/workflow-reset';

let stack: EngineHarness;
let client: StackClient;
beforeAll(async () => {
  // The default profile in either suite: the buyer is driven without a browser, through the default sandbox's shield
  // endpoints (tools/cluster/lifecycles.ts); what a reset does is the engine's, whatever the provider's profile.
  stack = await startEngineHarness(
    { SANDBOX_DEDUPLICATE: 'false', SANDBOX_PROFILE: 'default' },
    { providerProxy: true },
  );
  client = new StackClient({
    engineUrl: stack.apiUrl,
    sandboxUrl: stack.sandboxUrl,
    apiKey: stack.config.ENGINE_API_KEYS[0]?.secret ?? '',
    adminToken: stack.config.SANDBOX_ADMIN_TOKEN,
    shieldPublicKey: stack.config.PAYMENT_SHIELD_PUBLIC_KEY,
  });
});
afterAll(() => stack?.close());

const AUTHORIZE = '/api/v1/card/payments';
const authorizations = () => {
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  return stack.provider.count('POST', AUTHORIZE);
};

async function paid(): Promise<string> {
  const externalId = `card-reset-${randomBytes(4).toString('hex')}`;
  await paidCardPayment(client, externalId);
  return externalId;
}

test('paid card payments reset to their first task, their last and every workflow task between: PAID again, one authorization each, the checkout takes no second card', async () => {
  const probe = await paid();
  const tasks = (await resettableWorkflowTasks(stack, cardPaymentWorkflowId(probe))).length;
  // First task, last task, then the n-th task of each payment's own history.
  const payments = [probe, ...(await Promise.all(Array.from({ length: tasks + 1 }, () => paid())))];
  const before = authorizations();
  // Each payment's own authorization went through the proxy: a count that could not see them would prove nothing below.
  expect(before).toBeGreaterThanOrEqual(payments.length);
  await Promise.all(
    payments.map(async (externalId, i) => {
      const point: ResetPoint =
        i === 0
          ? { type: 'FirstWorkflowTask' }
          : i === 1
            ? { type: 'LastWorkflowTask' }
            : await nthResettableTask(stack, cardPaymentWorkflowId(externalId), i - 2);
      expect({
        point: describePoint(point),
        status: await resetAndWait(stack, cardPaymentWorkflowId(externalId), point),
      }).toEqual({ point: describePoint(point), status: 'COMPLETED' });
      const view = await stack.api<CardPaymentResponse>('GET', `/v1/card-payments/${externalId}`);
      expect({ point: describePoint(point), status: view.body.status }).toEqual({
        point: describePoint(point),
        status: 'PAID',
      });
      // The buyer opens the checkout again and pays: refused (409 CHECKOUT_CLOSED), still PAID, no authorization.
      const again = await sendCardToCheckout(client, externalId).catch((error: unknown) => error);
      expect({ point: describePoint(point), again: String(again) }).toEqual({
        point: describePoint(point),
        again: expect.stringMatching(/answered 409: .*CHECKOUT_CLOSED/) as unknown,
      });
      expect((await stack.api<CardPaymentResponse>('GET', `/v1/card-payments/${externalId}`)).body.status).toBe('PAID');
    }),
  );
  expect(authorizations()).toBe(before);
}, 240_000);

test('an order whose card authorization an earlier run claimed and sent: the checkout sends no card again, and the earlier payment settles it', async () => {
  const created = await createCardPayment(stack, 'card-rerun', { amount: 15 });
  // What the earlier run's checkout did: claimed the order's intent, charged the card, recorded the answer.
  const key = cardAuthorizationKey(created.externalId);
  await stack.intents.claim(key, 'checkout:earlier-run');
  const { data } = await chargeAtProvider(stack, created.externalId, 15);
  await stack.intents.record(key, 'checkout:earlier-run', { state: 'SENT', providerId: String(data.id) });

  const before = authorizations();
  const answer = await payAtCheckout(stack, created, '4000000000001000');
  expect(answer.body).toMatchObject({ status: 'PENDING' });
  expect(authorizations()).toBe(before);
  expect(await waitForCardPayment(stack, created.externalId, ['PAID'])).toMatchObject({ providerPaymentId: data.id });
});
