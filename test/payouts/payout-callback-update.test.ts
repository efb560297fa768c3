/**
 * The provider's callback handed to a payout as an update (version 4), and the signal that follows whenever the
 * update cannot be taken in time: no worker polling, a payout of before version 4. Real stack: API, worker,
 * sandbox over HTTP. The callback wait is longer than every test, so a settled payout was settled by its callback,
 * not by polling the check.
 */
import { temporal } from '@temporalio/proto';
import { signWebhook } from '../../src/payment-api/webhook-signature';
import { pollUntil } from '../../src/util/poll';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, startPayoutOfVersion, waitForPayout } from '../helpers/payouts';
import { postSignedWithdrawalCallback, withdrawalCallbackBody } from '../helpers/callbacks';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';

const EventType = temporal.api.enums.v1.EventType;
const CALLBACK_WAIT_MS = 120_000;
/** What the sandbox gives one callback attempt (sandbox/callbacks/dispatcher.ts): the provider's timeout. */
const PROVIDER_CALLBACK_TIMEOUT_MS = 10_000;

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness({ PAYOUT_CALLBACK_WAIT_MS: String(CALLBACK_WAIT_MS) });
});
afterEach(async () => {
  await stack.admin('DELETE', '/sandbox/faults');
  await stack.startWorker();
});
afterAll(() => stack?.close());

const submit = (id: string, amount: number) =>
  stack.api('POST', '/v1/payouts', { externalId: id, amount, pixKey: 'ana@example.com', keyType: 'EMAIL' });

/** How the callbacks reached the payout: signals and accepted updates named `withdrawalCallback` in its history. */
async function callbacksInHistory(id: string): Promise<{ signals: number; updates: number }> {
  const history = await stack.temporal.client.workflow.getHandle(payoutWorkflowId(id)).fetchHistory();
  const events = history.events ?? [];
  return {
    signals: events.filter(
      (event) =>
        event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED &&
        event.workflowExecutionSignaledEventAttributes?.signalName === 'withdrawalCallback',
    ).length,
    updates: events.filter(
      (event) =>
        event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED &&
        event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'withdrawalCallback',
    ).length,
  };
}

test('the provider’s callback reaches a payout as an update and settles it', async () => {
  const id = newExternalId('cb-update');
  expect((await submit(id, 21)).status).toBe(202);
  const payout = await waitForPayout(stack, id, ['COMPLETED'], 60_000);
  expect(payout.callbacksReceived).toBe(1);
  expect(await callbacksInHistory(id)).toEqual({ signals: 0, updates: 1 });
  await recordHistory(
    stack.temporal.client,
    payoutWorkflowId(id),
    currentPayoutHistory('completed-by-callback-update'),
  );
});

test('with no worker polling, the provider’s callback is answered within its timeout, and the payout settles once a worker comes', async () => {
  // The sandbox's own callback is dropped: the one sent below is the payout's only callback.
  expect((await stack.admin('PUT', '/sandbox/faults', { callbacks: { drop: { count: 1 } } })).status).toBe(200);
  const id = newExternalId('cb-no-worker');
  expect((await submit(id, 22)).status).toBe(202);
  const submitted = await waitForPayout(stack, id, ['SUBMITTED'], 60_000);
  const transactionId = String(submitted.providerTransactionId);
  // Settled at the provider, so that the check the callback prompts finds the outcome.
  await pollUntil(
    async () => {
      const answer = await stack.admin<{ operation: { status: string } }>(
        'GET',
        `/sandbox/operations/${transactionId}`,
      );
      return answer.body.operation.status === 'COMPLETED' ? true : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 100, description: `${transactionId} settled at the provider` },
  );
  await stack.stopWorker();

  const body = withdrawalCallbackBody({
    transactionId,
    externalId: id,
    status: 'COMPLETED',
    amount: 22,
    fee: Number(submitted.fee),
    total: Number(submitted.total),
  });
  const startedAt = Date.now();
  const answer = await postSignedWithdrawalCallback(
    stack.apiUrl,
    body,
    signWebhook(stack.config.WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000)),
  );
  const answeredInMs = Date.now() - startedAt;
  expect(answer.status).toBe(200);
  expect(answeredInMs).toBeLessThan(PROVIDER_CALLBACK_TIMEOUT_MS);

  await stack.startWorker();
  const payout = await waitForPayout(stack, id, ['COMPLETED'], 60_000);
  expect(payout.callbacksReceived).toBeGreaterThanOrEqual(1);
  // The signal carried it; the update the server still held may have come too (a hint twice changes nothing).
  expect((await callbacksInHistory(id)).signals).toBe(1);
});

test('a payout of version 3 (started before the update existed) refuses the update and settles by the signal', async () => {
  const id = newExternalId('cb-v3');
  const request = {
    method: 'pix_key',
    externalId: id,
    amountCents: 2300,
    pixKey: 'ana@example.com',
    keyType: 'EMAIL',
  } as const;
  expect(await startPayoutOfVersion(stack, request, 3)).toBe('started');
  const payout = await waitForPayout(stack, id, ['COMPLETED'], 60_000);
  expect(payout.callbacksReceived).toBe(1);
  expect(await callbacksInHistory(id)).toEqual({ signals: 1, updates: 0 });
});
