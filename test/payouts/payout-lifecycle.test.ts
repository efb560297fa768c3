/**
 * A payout through the real stack: engine API → workflow on a real worker → sandbox over HTTP →
 * signed callback → update (the signal as fallback) → transaction check → final state, visible in Temporal's visibility.
 */
import { temporal } from '@temporalio/proto';
import { pollUntil } from '../../src/util/poll';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import {
  newExternalId,
  pixKeyPayout,
  providerDebits,
  sentTwice,
  waitForPayout,
  withdrawalsSent,
  startPayoutOfVersion,
} from '../helpers/payouts';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';
import { waitForWorkflowCompleted } from '../helpers/workflow-reset';

let stack: EngineHarness;
beforeAll(async () => {
  // Debits counted against a sandbox that de-duplicates nothing, and the withdrawals at the wire, through a recording proxy.
  stack = await startEngineHarness({ SANDBOX_DEDUPLICATE: 'false' }, { providerProxy: true });
});
afterAll(() => stack?.close());

const externalId = newExternalId;

async function submit(id: string, amount: number, extra: Record<string, unknown> = {}) {
  return stack.api('POST', '/v1/payouts', { externalId: id, amount, pixKey: '52998224725', keyType: 'CPF', ...extra });
}

const waitForStatus = (id: string, statuses: string[], timeoutMs?: number) =>
  waitForPayout(stack, id, statuses, timeoutMs);

/** Sent once and debited once: the engine's POSTs at the proxy, the provider's debits. */
async function expectSentAndDebitedOnce(id: string): Promise<void> {
  expect({ id, sent: withdrawalsSent(stack, id), debits: await providerDebits(stack, id) }).toEqual({
    id,
    sent: 1,
    debits: 1,
  });
}

async function visibleWithStatus(id: string, status: string): Promise<boolean> {
  return pollUntil(
    async () => {
      for await (const execution of stack.temporal.client.workflow.list({
        query: `WorkflowId = '${payoutWorkflowId(id)}' AND PayoutStatus = '${status}'`,
      })) {
        if (execution.workflowId === payoutWorkflowId(id)) return true;
      }
      return undefined;
    },
    { timeoutMs: 20_000, intervalMs: 250, description: `${id} visible as ${status}` },
  );
}

test('a payout goes from POST /v1/payouts to COMPLETED by callback, confirmed by the check', async () => {
  const id = externalId('completed');
  const accepted = await submit(id, 25);
  expect(accepted.status).toBe(202);
  expect(accepted.body).toEqual({ externalId: id, status: 'RECEIVED', workflowId: `payout:${id}` });

  const payout = await waitForStatus(id, ['COMPLETED']);
  expect(payout).toMatchObject({ amount: 25, fee: 1.25, total: 26.25 });
  expect(payout.callbacksReceived).toBeGreaterThanOrEqual(1);
  expect(payout.transitions.map((t) => t.to)).toEqual(['RECEIVED', 'SUBMITTED', 'COMPLETED']);
  expect(await visibleWithStatus(id, 'COMPLETED')).toBe(true);
  await expectSentAndDebitedOnce(id);
  await recordHistory(stack.temporal.client, payoutWorkflowId(id), currentPayoutHistory('completed-by-callback'));
});

// While a deploy rolls out, an API or batch worker of before still starts payouts of version 2: this worker runs
// them on version 2's path (the provider id indexed on its own, behind its patch), which still finds them by that id.
test('a payout of version 2 started now keeps its path: its provider id indexed behind the patch, and found by it', async () => {
  const id = externalId('v2');
  const request = pixKeyPayout(id);
  expect(await startPayoutOfVersion(stack, request, 2)).toBe('started');
  const payout = await waitForStatus(id, ['COMPLETED']);
  expect(payout.transitions.map((t) => t.to)).toEqual(['RECEIVED', 'SUBMITTED', 'COMPLETED']);
  const history = await stack.temporal.client.workflow.getHandle(payoutWorkflowId(id)).fetchHistory();
  const upserted = (history.events ?? []).flatMap((event) => {
    const fields = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
    return fields ? [Object.keys(fields).sort().join('+')] : [];
  });
  expect(upserted).toEqual(['PayoutStatus', 'TemporalChangeVersion', 'ProviderTransactionId', 'PayoutStatus']);
  expect(
    (history.events ?? []).filter(
      (event) => event.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_MARKER_RECORDED,
    ),
  ).toHaveLength(4);
  const byProviderId = await pollUntil(
    async () => {
      for await (const execution of stack.temporal.client.workflow.list({
        query: `ProviderTransactionId = '${String(payout.providerTransactionId)}'`,
      }))
        return execution.workflowId;
      return undefined;
    },
    { timeoutMs: 20_000, intervalMs: 250, description: `${id} visible by its provider id` },
  );
  expect(byProviderId).toBe(payoutWorkflowId(id));
  await recordHistory(
    stack.temporal.client,
    payoutWorkflowId(id),
    'payout-v2-provider-id-patched-completed-by-callback',
  );
});

test("a payout the provider fails ends FAILED with the provider's reason", async () => {
  const id = externalId('failed');
  await submit(id, 10.13);
  const payout = await waitForStatus(id, ['FAILED']);
  // The reason rides on the provider's signed callback; where callbacks are unsigned hints (the seed profile) it is the check's.
  expect(payout.failureReason).toMatch(
    stack.config.SANDBOX_PROFILE === 'seed' ? /provider reported FALHA/ : /Recipient account closed/,
  );
  expect(await visibleWithStatus(id, 'FAILED')).toBe(true);
  await recordHistory(stack.temporal.client, payoutWorkflowId(id), currentPayoutHistory('failed'));
});

test('the same request again answers with the existing payout; a different body under the same id is a 409', async () => {
  const id = externalId('idem');
  const again = await sentTwice(() => submit(id, 7.5));
  expect(again.body).toMatchObject({ externalId: id, workflowId: `payout:${id}` });
  const conflicting = await submit(id, 7.51);
  expect(conflicting.status).toBe(409);
  expect(conflicting.body).toMatchObject({ code: 'PAYOUT_CONFLICT' });
  await waitForStatus(id, ['COMPLETED']);
  await expectSentAndDebitedOnce(id);
});

test('bad input is refused with every field named, and starts nothing', async () => {
  const id = externalId('bad');
  // The CPF's check digit is wrong: refused for that once the amount is right.
  const submit = (amount: number) =>
    stack.api<{ code: string; issues: { path: string; message: string }[] }>('POST', '/v1/payouts', {
      externalId: id,
      amount,
      pixKey: '52998224724',
      keyType: 'CPF',
    });
  const answer = await submit(10.005);
  expect(answer.status).toBe(400);
  expect(answer.body.code).toBe('VALIDATION_FAILED');
  expect(answer.body.issues.map((issue) => issue.path).sort()).toEqual(['amount']);
  const badKey = await submit(10);
  expect(badKey.status).toBe(422);
  expect(badKey.body.code).toBe('PAYOUT_NOT_PAYABLE');
  expect(badKey.body.issues).toEqual([{ path: 'pixKey', message: expect.stringMatching(/check digit/i) as unknown }]);
  expect((await stack.api('GET', `/v1/payouts/${id}`)).status).toBe(404);
});

test('the API refuses requests without a valid key', async () => {
  const response = await fetch(`${stack.apiUrl}/v1/payouts/anything`, { headers: { authorization: 'Bearer wrong' } });
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
});

test('a submitted payout cannot be cancelled', async () => {
  const id = externalId('nocancel');
  // An amount ending in .14 stays PROCESSING at the sandbox: the payout is SUBMITTED, not yet final.
  await submit(id, 3.14);
  await waitForStatus(id, ['SUBMITTED']);
  const answer = await stack.api('POST', `/v1/payouts/${id}/cancel`, { reason: 'changed my mind' });
  expect(answer.status).toBe(409);
  expect(answer.body).toMatchObject({
    code: 'PAYOUT_NOT_CANCELLABLE',
    message: 'the payout was already submitted to the provider',
  });
  expect((await waitForStatus(id, ['SUBMITTED'])).transitions.map((t) => t.to)).toEqual(['RECEIVED', 'SUBMITTED']);
});

test('with no worker running, GET answers within the call deadline from the visibility index', async () => {
  await stack.stopWorker();
  try {
    const id = externalId('noworker');
    expect((await submit(id, 4)).status).toBe(202);
    const answer = await stack.api('GET', `/v1/payouts/${id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      externalId: id,
      status: 'RECEIVED',
      amount: 4,
      source: 'index',
      transitions: [],
    });
  } finally {
    await stack.startWorker();
  }
});

test('a closed payout is read from its result, with its whole history', async () => {
  const id = externalId('closed');
  await submit(id, 6);
  const done = await waitForStatus(id, ['COMPLETED']);
  await waitForWorkflowCompleted(stack, payoutWorkflowId(id), 10_000);
  await stack.stopWorker();
  try {
    const answer = await stack.api('GET', `/v1/payouts/${id}`);
    expect(answer.body).toMatchObject({ status: 'COMPLETED', source: 'workflow' });
    expect((answer.body as { transitions: unknown[] }).transitions).toEqual(done.transitions);
  } finally {
    await stack.startWorker();
  }
});
