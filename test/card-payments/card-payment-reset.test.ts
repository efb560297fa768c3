/**
 * Card payments reset with the real CLI to their first task, their last task and every workflow task a
 * reset can reach. No workflow calls the card authorization (endpoint 2): the API's checkout does, once,
 * and only while the workflow awaits a card. A reset re-applies the checkout's update and the provider's
 * answer (Temporal's default), so the new run is past AWAITING_CARD, re-reads the payment (endpoint 3) and
 * the checkout refuses a second card: one authorization per payment, whatever the point. The engine
 * reaches the sandbox through a recording proxy.
 */
import { randomBytes } from 'node:crypto';
import type { CardPaymentResponse } from '../../src/api/card-payments/card-payment-response';
import { cardPaymentWorkflowId } from '../../workflows/card-payment/messages';
import { paidCardPayment, payByCard } from '../../tools/cluster/lifecycles';
import { StackClient } from '../../tools/cluster/stack-client';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { describePoint, resetAndWait, resettableWorkflowTasks, type ResetPoint } from '../helpers/workflow-reset';

let stack: EngineHarness;
let client: StackClient;
beforeAll(async () => {
  stack = await startEngineHarness({ SANDBOX_DEDUPLICATE: 'false' }, { providerProxy: true });
  client = new StackClient({ engineUrl: stack.apiUrl, sandboxUrl: stack.sandboxUrl, apiKey: stack.config.ENGINE_API_KEYS[0] ?? '', adminToken: stack.config.SANDBOX_ADMIN_TOKEN });
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
  const points: ResetPoint[] = [{ type: 'FirstWorkflowTask' }, { type: 'LastWorkflowTask' }, ...(await resettableWorkflowTasks(stack, cardPaymentWorkflowId(probe))).map((eventId) => ({ eventId }))];
  const payments = [probe, ...(await Promise.all(points.slice(1).map(() => paid())))];
  const before = authorizations();
  await Promise.all(
    payments.map(async (externalId, i) => {
      const point = points[i] as ResetPoint;
      expect({ point: describePoint(point), status: await resetAndWait(stack, cardPaymentWorkflowId(externalId), point) }).toEqual({ point: describePoint(point), status: 'COMPLETED' });
      const view = await stack.api<CardPaymentResponse>('GET', `/v1/card-payments/${externalId}`);
      expect({ point: describePoint(point), status: view.body.status }).toEqual({ point: describePoint(point), status: 'PAID' });
      // The buyer opens the checkout again and pays: refused (409 CHECKOUT_CLOSED), read back as PAID, no authorization.
      await payByCard(client, externalId);
    }),
  );
  expect(authorizations()).toBe(before);
}, 240_000);
