/**
 * The payout under the faults it exists for: lost, duplicated and reordered callbacks; a provider that
 * commits and then times out; a worker killed mid-payout, before and after the provider answered; forged
 * and stale callbacks. The sandbox does not de-duplicate (SANDBOX_DEDUPLICATE=false) and the engine
 * reaches it through a recording proxy: exactly once is what the engine sent, not what the provider kept.
 */
import {
  signWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/payment-api/webhook-signature';
import { pollUntil } from '../../src/util/poll';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { duplicateCallbackAnswered, newExternalId, providerDebits, waitForPayout } from '../helpers/payouts';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';
import { postSignedWithdrawalCallback, withdrawalCallbackBody } from '../helpers/callbacks';

const WITHDRAW = '/api/withdrawals/withdraw';
const CHECK = '/api/transactions/check';

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness({ SANDBOX_DEDUPLICATE: 'false' }, { providerProxy: true });
});
afterEach(async () => {
  await stack.admin('DELETE', '/sandbox/faults');
  await stack.startWorker();
});
afterAll(() => stack?.close());

const externalId = newExternalId;
const submit = (id: string, amount: number) =>
  stack.api('POST', '/v1/payouts', { externalId: id, amount, pixKey: 'ana@example.com', keyType: 'EMAIL' });
const getPayout = async (id: string) => (await stack.api<PayoutResponse>('GET', `/v1/payouts/${id}`)).body;

const waitForStatus = (id: string, statuses: string[], timeoutMs?: number) =>
  waitForPayout(stack, id, statuses, timeoutMs);

const debitsFor = (id: string) => providerDebits(stack, id);
const provider = () => {
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  return stack.provider;
};
/** POSTs of this payout's withdrawal that the engine sent (the proxy sees every one; ids are per test, the proxy's counts per file). */
const postsSince = (before: number) => provider().count('POST', WITHDRAW) - before;
const faultsLeft = async () =>
  (await stack.admin<{ faults: Record<string, unknown> }>('GET', '/sandbox/faults')).body.faults;
const causeOf = (payout: PayoutResponse, state: string) => payout.transitions.find((t) => t.to === state)?.cause;

async function setFaults(faults: Record<string, unknown>): Promise<void> {
  const answer = await stack.admin('PUT', '/sandbox/faults', faults);
  expect(answer.status).toBeLessThan(300);
}

test('with the callback dropped, the payout still completes by polling the check', async () => {
  await setFaults({ callbacks: { drop: { count: 1 } } });
  const id = externalId('dropped');
  await submit(id, 12.34);
  const payout = await waitForStatus(id, ['COMPLETED']);
  expect(payout.callbacksReceived).toBe(0);
  expect(payout.checksMade).toBeGreaterThanOrEqual(1);
  await recordHistory(stack.temporal.client, payoutWorkflowId(id), currentPayoutHistory('completed-by-polling'));
});

test('duplicated and reordered callbacks give the same result and change nothing after the end', async () => {
  await setFaults({ callbacks: { duplicate: { count: 2 }, reorder: true } });
  const before = provider().count('POST', WITHDRAW);
  const first = externalId('dup-a');
  const second = externalId('dup-b');
  await submit(first, 5);
  await submit(second, 6.13);
  const [a, b] = [await waitForStatus(first, ['COMPLETED']), await waitForStatus(second, ['FAILED'])];
  expect(a.transitions.map((t) => t.to)).toEqual(['RECEIVED', 'SUBMITTED', 'COMPLETED']);
  expect(b.transitions.map((t) => t.to)).toEqual(['RECEIVED', 'SUBMITTED', 'FAILED']);
  // Both copies reached the engine and were answered 2xx. A copy sent within the same second is the very
  // same signed request: a replay, acknowledged without a signal; a later one is signalled and changes nothing.
  await duplicateCallbackAnswered(stack, first);
  const after = await getPayout(first);
  expect(after.status).toBe('COMPLETED');
  expect([1, 2]).toContain(after.callbacksReceived);
  expect(await debitsFor(first)).toBe(1);
  expect(postsSince(before)).toBe(2);
});

test.each(['reset', 'hang'] as const)(
  'a provider that commits and then fails the answer (%s): the engine asks before it posts again, one POST, one debit',
  async (mode) => {
    const before = provider().count('POST', WITHDRAW);
    await setFaults({ timeoutAfterCommit: { count: 1, mode, paths: [WITHDRAW] } });
    const id = externalId(`ambiguous-${mode}`);
    await submit(id, mode === 'reset' ? 40 : 41);
    const payout = await waitForStatus(id, ['COMPLETED']);
    // The fault fired (its one count is consumed), the engine did not post again, and it learned of the withdrawal by asking.
    expect(await faultsLeft()).toEqual({});
    expect(postsSince(before)).toBe(1);
    expect(causeOf(payout, 'SUBMITTED')).toBe('found at the provider by reconciliation');
    expect(await debitsFor(id)).toBe(1);
  },
);

test('killing the worker process (SIGKILL) while the provider holds the answer: the re-run submission asks first, one POST, one debit', async () => {
  await stack.stopWorker();
  const doomed = await stack.spawnWorkerProcess();
  const before = { posts: provider().count('POST', WITHDRAW), checks: provider().count('POST', CHECK) };
  await setFaults({ timeoutAfterCommit: { count: 1, mode: 'hang', paths: [WITHDRAW] } });
  const id = externalId('lost-task');
  await submit(id, 16);
  // The withdrawal is committed and its answer withheld: the local submission is in flight, nothing of it in history yet.
  await pollUntil(async () => ((await debitsFor(id)) === 1 ? true : undefined), {
    timeoutMs: 15_000,
    description: 'the withdrawal to be committed',
  });
  doomed.kill('SIGKILL');
  await stack.startWorker();
  // The lost workflow task times out and the next one runs the submission again, as attempt 1.
  const payout = await waitForStatus(id, ['COMPLETED'], 60_000);
  expect(postsSince(before.posts)).toBe(1);
  expect(provider().count('POST', CHECK) - before.checks).toBeGreaterThanOrEqual(1);
  expect(causeOf(payout, 'SUBMITTED')).toBe('found at the provider by reconciliation');
  expect(await debitsFor(id)).toBe(1);
  // The kill landed while the submission was in flight: the task that ran it timed out before any submission was recorded.
  const events = (await stack.temporal.client.workflow.getHandle(payoutWorkflowId(id)).fetchHistory()).events ?? [];
  const timedOut = events.findIndex((event) => event.workflowTaskTimedOutEventAttributes);
  const firstSubmission = events.findIndex((event) => event.markerRecordedEventAttributes);
  expect({ timedOut: timedOut >= 0, submissionAfterIt: firstSubmission > timedOut }).toEqual({
    timedOut: true,
    submissionAfterIt: true,
  });
}, 90_000);

// Not an exactly-once test (the submission is in history before the kill; the test above is that one): it proves a
// new worker resumes from history, waiting for the provider's outcome without running the submission again.
test('killing the worker process (SIGKILL) after SUBMITTED: a new worker resumes the payout from its history, no second submission, one debit', async () => {
  await stack.stopWorker();
  const doomed = await stack.spawnWorkerProcess();
  await setFaults({ callbacks: { delayMs: 3_000 } });
  const before = provider().count('POST', WITHDRAW);
  const id = externalId('killed');
  await submit(id, 15);
  await waitForStatus(id, ['SUBMITTED']);
  doomed.kill('SIGKILL');
  await stack.startWorker();
  const payout = await waitForStatus(id, ['COMPLETED'], 60_000);
  expect(payout.transitions.map((t) => t.to)).toEqual(['RECEIVED', 'SUBMITTED', 'COMPLETED']);
  expect(postsSince(before)).toBe(1);
  expect(await debitsFor(id)).toBe(1);
});

test('a forged or stale callback is answered 401 and changes nothing', async () => {
  const id = externalId('forged');
  await setFaults({ callbacks: { drop: { count: 1 } } });
  await submit(id, 8);
  await waitForStatus(id, ['SUBMITTED', 'COMPLETED']);
  const body = JSON.stringify({
    transaction_id: 'wd_forged',
    external_id: id,
    status: 'FAILED',
    amount: 8,
    fee: 0.4,
    total: 8.4,
    type: 'Withdrawal',
    reason: 'forged',
    updated_at: new Date().toISOString(),
  });
  const post = (headers: Record<string, string>) =>
    fetch(`${stack.apiUrl}/callbacks/withdrawals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  const wrongSecret = signWebhook(['not-the-secret'], body, Math.floor(Date.now() / 1000));
  expect(
    (
      await post({
        [WEBHOOK_TIMESTAMP_HEADER]: wrongSecret.timestamp,
        [WEBHOOK_SIGNATURE_HEADER]: wrongSecret.signature,
      })
    ).status,
  ).toBe(401);
  const stale = signWebhook(stack.config.WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000) - 600);
  expect(
    (await post({ [WEBHOOK_TIMESTAMP_HEADER]: stale.timestamp, [WEBHOOK_SIGNATURE_HEADER]: stale.signature })).status,
  ).toBe(401);
  // Unsigned: refused where signatures are required; where they are optional (the default) it is taken as a
  // hint that carries no outcome, so the FAILED it claims changes nothing either.
  const required = stack.config.PROVIDER_CALLBACK_SIGNATURES === 'required';
  expect((await post({})).status).toBe(required ? 401 : 200);

  const payout = await waitForStatus(id, ['COMPLETED']);
  expect(payout.callbacksReceived).toBe(required ? 0 : 1);
  expect(payout.failureReason).toBeUndefined();
});

test('a signed callback for an unknown payout is acknowledged, starts nothing, and is kept for operators', async () => {
  const id = externalId('stranger');
  const body = withdrawalCallbackBody({
    transactionId: 'wd_unknown',
    externalId: id,
    status: 'COMPLETED',
    amount: 1,
    fee: 0.05,
    total: 1.05,
  });
  const signed = signWebhook(stack.config.WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000));
  const response = await postSignedWithdrawalCallback(stack.apiUrl, body, signed);
  expect(response.status).toBe(202);
  expect((await stack.api('GET', `/v1/payouts/${id}`)).status).toBe(404);
  const unmatched = await stack.api<{ data: { reference: string }[] }>('GET', '/v1/callbacks/unmatched');
  expect(unmatched.body.data.map((entry) => entry.reference)).toContain(id);
});
