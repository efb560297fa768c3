/**
 * A recheck is "look now", whatever the workflow is doing: sent while the submission (a local activity that
 * holds the workflow's task) waits 3 s for a healthy provider's answer, it answers 202 with the payout's current
 * view at once, never 503, and the workflow looks at the provider as soon as its task ends.
 */
import { pollUntil } from '../../src/util/poll';
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { engineForThisFile } from '../helpers/engine-harness';
import { forceOutcome } from '../helpers/charges';
import { newExternalId, postPayout, waitForPayout } from '../helpers/payouts';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';
import { payoutWorkflowId } from '../../src/contracts/payout';

const WITHDRAW = '/api/withdrawals/withdraw';
const CHECK = '/api/transactions/check';

// A provider that answers in 3 s is healthy (within PAYMENT_API_TIMEOUT_MS), though slower than the engine's calls to
// Temporal may wait (TEMPORAL_CALL_DEADLINE_MS); the callback is waited for a minute.
const stack = engineForThisFile(
  { PAYMENT_API_TIMEOUT_MS: '10000', TEMPORAL_CALL_DEADLINE_MS: '1000', PAYOUT_CALLBACK_WAIT_MS: '60000' },
  { providerProxy: true },
);

const viewOf = async (externalId: string) => (await stack.api<PayoutResponse>('GET', `/v1/payouts/${externalId}`)).body;

function provider() {
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  return stack.provider;
}

test('a recheck while the provider takes 3 s to answer the submission: 202 with the current view, then the workflow looks', async () => {
  const externalId = newExternalId('busy');
  provider().delayNext(WITHDRAW, 3_000);
  // Amounts ending in .14 stay PROCESSING at the sandbox: no callback comes, only a look at the provider settles anything.
  await postPayout(stack, { externalId, amount: 10.14, pixKey: '52998224725', keyType: 'CPF' });
  await pollUntil(() => (provider().count('POST', WITHDRAW) === 1 ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 20,
    description: 'the submission at the provider',
  });

  const sentAt = Date.now();
  const recheck = await stack.api<PayoutResponse & { code?: string }>('POST', `/v1/payouts/${externalId}/recheck`);
  expect([recheck.status, recheck.body.code, recheck.body.status]).toEqual([202, undefined, 'RECEIVED']);
  // At once: not after the submission's task ended.
  expect(Date.now() - sentAt).toBeLessThan(2_500);

  // The workflow takes the recheck when its task ends: it asks the provider without waiting a minute for a callback.
  const looked = await pollUntil(
    async () => {
      const view = (await stack.api<PayoutResponse>('GET', `/v1/payouts/${externalId}`)).body;
      return view.status === 'SUBMITTED' && view.checksMade >= 1 ? view : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200, description: 'the payout submitted and looked at' },
  );
  expect(looked.checksMade).toBeGreaterThanOrEqual(1);
  expect(provider().count('POST', CHECK)).toBeGreaterThanOrEqual(1);
  expect(provider().count('POST', WITHDRAW)).toBe(1);

  // Once submitted, a recheck asks the provider and answers what it said.
  const again = await stack.api<PayoutResponse>('POST', `/v1/payouts/${externalId}/recheck`);
  expect([again.status, again.body.status]).toEqual([200, 'SUBMITTED']);
  expect(again.body.checksMade).toBeGreaterThan(looked.checksMade);
});

test('a recheck while the submission is being retried: 202, and once submitted the payout looks at the provider at once', async () => {
  const externalId = newExternalId('retrying');
  // The provider answers 503 to everything: the submission is retried (RECEIVED), its workflow's task free meanwhile.
  await stack.admin('PUT', '/sandbox/faults', { errorRate: 1 });
  const before = provider().requests.length;
  expect(
    (await stack.api('POST', '/v1/payouts', { externalId, amount: 10.14, pixKey: '52998224725', keyType: 'CPF' }))
      .status,
  ).toBe(202);
  // Its first attempt refused (the login or the withdrawal itself, whichever it needed).
  await pollUntil(() => (provider().requests.length > before ? true : undefined), {
    timeoutMs: 15_000,
    intervalMs: 50,
    description: 'the submission refused by the provider',
  });

  const recheck = await stack.api<PayoutResponse>('POST', `/v1/payouts/${externalId}/recheck`);
  expect([recheck.status, recheck.body.status]).toEqual([202, 'RECEIVED']);
  await stack.admin('DELETE', '/sandbox/faults');

  // Submitted by a retry; the recheck taken then: a look at once, not after the minute's wait for a callback.
  const looked = await pollUntil(
    async () => {
      const view = await viewOf(externalId);
      return view.status === 'SUBMITTED' && view.checksMade >= 1 ? view : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, description: 'the payout submitted and looked at' },
  );
  expect(looked.callbacksReceived).toBe(0);
  expect(provider().count('POST', WITHDRAW)).toBeGreaterThanOrEqual(1);

  expect(await forceOutcome(stack, externalId, { status: 'COMPLETED' })).toBe(200);
  expect((await waitForPayout(stack, externalId, ['COMPLETED', 'FAILED', 'NEEDS_REVIEW'])).status).toBe('COMPLETED');
  await recordHistory(
    stack.temporal.client,
    payoutWorkflowId(externalId),
    currentPayoutHistory('recheck-asked-while-submitting'),
  );
});
