/**
 * A signed callback captured on the way (a log, a proxy, a compromised receiver) and sent again within
 * its 300 s window passes the signature check: the engine remembers what it took, answers the copy as
 * received and signals nothing. The provider's own retry is signed again (a new timestamp) and is taken;
 * the same bytes are taken again only if the first attempt was not (503: Temporal down).
 */
import { temporal } from '@temporalio/proto';
import { signWebhook } from '../../src/payment-api/webhook-signature';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { postPayoutTo, startEngineApi } from '../helpers/engine-api';
import { forThisFile } from '../helpers/for-this-file';
import { postSignedWithdrawalCallback, withdrawalCallbackBody } from '../helpers/callbacks';

// No worker: the payout's workflow waits, and its history shows every signal it was sent.
const api = forThisFile(() => startEngineApi());

const withdrawalCallback = (externalId: string) =>
  withdrawalCallbackBody({ transactionId: 'wd_1', externalId, status: 'COMPLETED', amount: 10, fee: 0.8, total: 10.8 });

const send = (body: string, signed: { timestamp: string; signature: string }): Promise<Response> =>
  postSignedWithdrawalCallback(api.url, body, signed);

async function signalsOf(workflowId: string): Promise<number> {
  const history = await api.temporal.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).filter(
    (event) => event.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
  ).length;
}

/** A payout accepted for `externalId`, and its provider's callback signed now. */
async function payoutAndItsCallback(externalId: string) {
  await postPayoutTo(api, externalId);
  const body = withdrawalCallback(externalId);
  return { body, signed: signWebhook(api.config.WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000)) };
}

test('the same signed callback again within its window is answered as received and signals nothing; the retry signed again does', async () => {
  const externalId = `replay-${Date.now()}`;
  const { body, signed } = await payoutAndItsCallback(externalId);

  const first = await send(body, signed);
  expect(first.status).toBe(200);
  expect(await first.json()).toEqual({ received: true });
  const replayed = await Promise.all([send(body, signed), send(body, signed)]);
  for (const answer of replayed) {
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true, note: 'replay' });
  }
  expect(await signalsOf(payoutWorkflowId(externalId))).toBe(1);

  const resigned = await send(body, signWebhook(api.config.WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000) + 1));
  expect(await resigned.json()).toEqual({ received: true });
  expect(await signalsOf(payoutWorkflowId(externalId))).toBe(2);
});

test('a captured callback replayed with a value prepended to its signature header (`v1=00,`) still verifies, and is refused as the same callback', async () => {
  const externalId = `replay-prefixed-${Date.now()}`;
  const { body, signed } = await payoutAndItsCallback(externalId);
  expect(await (await send(body, signed)).json()).toEqual({ received: true });
  for (const signature of [
    `v1=00,${signed.signature}`,
    `v1=00 v1=11 ${signed.signature}`,
    `${signed.signature},v1=00`,
  ]) {
    const replayed = await send(body, { ...signed, signature });
    expect(replayed.status).toBe(200);
    expect(await replayed.json()).toEqual({ received: true, note: 'replay' });
  }
  expect(await signalsOf(payoutWorkflowId(externalId))).toBe(1);
});

test('a callback refused for its body (not JSON) is not remembered either way: the copy is refused the same', async () => {
  const body = '{"external_id": "cut-short';
  const signed = signWebhook(api.config.WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000));
  expect((await send(body, signed)).status).toBe(400);
  expect((await send(body, signed)).status).toBe(400);
});
