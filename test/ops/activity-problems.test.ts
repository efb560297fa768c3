/**
 * An operation that cannot reach the provider says why, through the real stack: while an activity keeps
 * failing past ACTIVITY_PROBLEM_AFTER_MS, `GET` shows `problem: {activity, message, since}`, the Temporal
 * UI finds it with `ActivityProblemSince`, and the worker counts it; once the provider answers again, the
 * problem and the index entry go, and the operation goes on.
 */
import { pollUntil } from '../../src/util/poll';
import { chargeWorkflowId } from '../../src/contracts/charge';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, postPayout, waitForPayout } from '../helpers/payouts';
import { parsePrometheusText, sampleSum } from '../helpers/prometheus-text';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness({ ACTIVITY_PROBLEM_AFTER_MS: '1500' });
});
afterAll(() => stack?.close());
afterEach(() => stack.admin('DELETE', '/sandbox/faults'));

interface WithProblem {
  status: string;
  problem?: { activity: string; message: string; since: string };
}

function problemOf(path: string): Promise<NonNullable<WithProblem['problem']>> {
  return pollUntil(async () => (await stack.api<WithProblem>('GET', path)).body.problem, {
    timeoutMs: 30_000,
    intervalMs: 200,
    description: `a problem on ${path}`,
  });
}

/** Workflow ids the visibility index lists with `query`. */
async function listed(query: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const execution of stack.temporal.client.workflow.list({ query })) ids.push(execution.workflowId);
  return ids;
}

async function problemsCounted(activity: string): Promise<number> {
  const text = await (await fetch(stack.metricsUrl)).text();
  return sampleSum(parsePrometheusText(text), 'payout_engine_activity_problems_total', { activity });
}

test('a payout whose provider answers 503 shows its problem, is found by ActivityProblemSince, is counted, and completes once the provider is back', async () => {
  const counted = await problemsCounted('submitWithdrawal');
  await stack.admin('PUT', '/sandbox/faults', { errorRate: 1 });
  const externalId = newExternalId('unreachable');
  const startedAt = Date.now();
  await postPayout(stack, { externalId, amount: 12, pixKey: '52998224725', keyType: 'CPF' });

  const problem = await problemOf(`/v1/payouts/${externalId}`);
  expect(problem).toMatchObject({ activity: 'submitWithdrawal', message: expect.stringMatching(/503|unavailable/i) });
  expect(Date.parse(problem.since)).toBeGreaterThanOrEqual(startedAt - 1_000);
  expect((await stack.api<WithProblem>('GET', `/v1/payouts/${externalId}`)).body.status).toBe('RECEIVED');
  const since = `ActivityProblemSince > '${new Date(startedAt - 60_000).toISOString()}'`;
  await pollUntil(async () => ((await listed(since)).includes(payoutWorkflowId(externalId)) ? true : undefined), {
    timeoutMs: 20_000,
    intervalMs: 250,
    description: 'the payout listed by ActivityProblemSince',
  });
  expect(await problemsCounted('submitWithdrawal')).toBe(counted + 1);

  await stack.admin('DELETE', '/sandbox/faults');
  const completed = await waitForPayout(stack, externalId, ['COMPLETED'], 60_000);
  expect(completed).not.toHaveProperty('problem');
  await pollUntil(async () => (!(await listed(since)).includes(payoutWorkflowId(externalId)) ? true : undefined), {
    timeoutMs: 20_000,
    intervalMs: 250,
    description: 'the payout no longer listed by ActivityProblemSince',
  });
  await recordHistory(
    stack.temporal.client,
    payoutWorkflowId(externalId),
    currentPayoutHistory('activity-problem-completed'),
  );
});

test('a charge whose creation keeps failing shows its problem while the merchant waits', async () => {
  await stack.admin('PUT', '/sandbox/faults', { errorRate: 1 });
  const externalId = newExternalId('charge-unreachable');
  const created = stack.api('POST', '/v1/charges', {
    externalId,
    amount: 40,
    payer: { name: 'Ana Souza', document: '529.982.247-25' },
  });
  const problem = await problemOf(`/v1/charges/${externalId}`);
  expect(problem.activity).toBe('createCharge');
  const query = `WorkflowId = '${chargeWorkflowId(externalId)}' AND ActivityProblemSince > '2000-01-01T00:00:00Z'`;
  await pollUntil(async () => ((await listed(query)).length === 1 ? true : undefined), {
    timeoutMs: 20_000,
    intervalMs: 250,
    description: 'the charge listed by ActivityProblemSince',
  });
  await stack.admin('DELETE', '/sandbox/faults');
  expect((await created).status).toBe(201);
  expect((await stack.api<WithProblem>('GET', `/v1/charges/${externalId}`)).body).not.toHaveProperty('problem');
});
