/**
 * A card payment or a charge that did not get paid still ends its workflow normally ("Completed", green,
 * in the Temporal UI): its current details, which the UI shows on the workflow's page, must say the
 * business outcome at a glance. Read through the real stack with the UI's own metadata query.
 */
import { cardPaymentWorkflowId } from '../../src/contracts/card-payment';
import { chargeWorkflowId } from '../../src/contracts/charge';
import { checkoutToken, createCardPayment } from '../card-payments/card-checkout';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { createCharge, forceOutcome } from '../helpers/charges';
import { newExternalId } from '../helpers/payouts';

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness();
});
afterAll(() => stack?.close());

/** What the Temporal UI shows as "Current Details" once the workflow has ended. */
async function finalDetails(workflowId: string): Promise<string> {
  const handle = stack.temporal.client.workflow.getHandle(workflowId);
  await handle.result();
  const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  return metadata.currentDetails ?? '';
}

test('a card payment whose buyer failed 3DS: Completed as a workflow, "not paid" and why in its details', async () => {
  const created = await createCardPayment(stack, 'ui-card', { amount: 30 });
  const token = checkoutToken(created);
  expect(
    (await stack.api('POST', `/checkout/${created.externalId}/fail`, { token, code: 'THREE_DS_DENIED' })).status,
  ).toBe(200);
  const details = await finalDetails(cardPaymentWorkflowId(created.externalId));
  expect(details).toMatch(/^\*\*FAILED\*\*: not paid: the buyer denied the 3DS challenge\n/);
});

test('a charge the provider failed: "not paid" and the reason in its details', async () => {
  const externalId = newExternalId('ui-charge');
  await createCharge(stack, externalId, 31);
  expect(await forceOutcome(stack, externalId, { status: 'FAILED', reason: 'payer bank offline' })).toBe(200);
  const details = await finalDetails(chargeWorkflowId(externalId));
  expect(details).toMatch(/^\*\*FAILED\*\*: not paid: the provider failed the charge\n/);
});
