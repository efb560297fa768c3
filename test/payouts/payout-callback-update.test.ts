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
import { newExternalId, pixKeyPayout, startPayoutOfVersion, waitForPayout } from '../helpers/payouts';
import type { PayoutResponse } from '../../src/api/payouts/schemas';
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

/** Settled at the provider, so that the check a callback prompts finds the outcome. */
function settledAtProvider(transactionId: string): Promise<true> {
  return pollUntil(
    async () => {
      const answer = await stack.admin<{ operation: { status: string } }>(
        'GET',
        `/sandbox/operations/${transactionId}`,
      );
      return answer.body.operation.status === 'COMPLETED' ? true : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 100, description: `${transactionId} settled at the provider` },
  );
}

/**
 * A payout submitted with the sandbox's own callback dropped, then settled at the provider: only a callback the test
 * sends can tell the engine.
 */
async function settledWithoutItsCallback(
  label: string,
  amount: number,
): Promise<{ id: string; submitted: PayoutResponse; transactionId: string }> {
  expect((await stack.admin('PUT', '/sandbox/faults', { callbacks: { drop: { count: 1 } } })).status).toBe(200);
  const id = newExternalId(label);
  expect((await submit(id, amount)).status).toBe(202);
  const submitted = await waitForPayout(stack, id, ['SUBMITTED'], 60_000);
  const transactionId = String(submitted.providerTransactionId);
  await settledAtProvider(transactionId);
  return { id, submitted, transactionId };
}

/** POSTs a withdrawal callback body to the engine, signed now with the stack's webhook secret. */
const postSigned = (body: string): Promise<Response> =>
  postSignedWithdrawalCallback(
    stack.apiUrl,
    body,
    signWebhook(stack.config.WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000)),
  );

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

test('a callback naming only the provider’s id reaches its payout through the intent store, while no index holds that id', async () => {
  const { id, submitted, transactionId } = await settledWithoutItsCallback('cb-provider-id', 24);
  // SUBMITTED is not indexed (version 5): visibility cannot route this callback.
  expect((await stack.temporal.client.workflow.count(`ProviderTransactionId = '${transactionId}'`)).count).toBe(0);

  const body = withdrawalCallbackBody({
    transactionId,
    status: 'COMPLETED',
    amount: 24,
    fee: Number(submitted.fee),
    total: Number(submitted.total),
  });
  const answer = await postSigned(body);
  expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 200, body: { received: true } });
  const payout = await waitForPayout(stack, id, ['COMPLETED'], 60_000);
  expect(payout.callbacksReceived).toBe(1);
  expect(await callbacksInHistory(id)).toEqual({ signals: 0, updates: 1 });
});

test('with no worker polling, the provider’s callback is answered within its timeout, and the payout settles once a worker comes', async () => {
  // The sandbox's own callback is dropped: the one sent below is the payout's only callback.
  const { id, submitted, transactionId } = await settledWithoutItsCallback('cb-no-worker', 22);
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
  const answer = await postSigned(body);
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
  const request = pixKeyPayout(id, { amountCents: 2300, pixKey: 'ana@example.com', keyType: 'EMAIL' });
  expect(await startPayoutOfVersion(stack, request, 3)).toBe('started');
  const payout = await waitForPayout(stack, id, ['COMPLETED'], 60_000);
  expect(payout.callbacksReceived).toBe(1);
  expect(await callbacksInHistory(id)).toEqual({ signals: 1, updates: 0 });
});
