/**
 * Each exactly-once guard of the submit activity, alone. The workflow backs them up (its remote retries count
 * after the local attempt), so only here, where the activity runs outside any workflow, does a test fail when
 * one guard is taken away: a claim this run already holds is only looked up, even on attempt 1; a local attempt
 * after a lost workflow task asks before it posts, even on a claim it just took; a claim an earlier run holds is
 * reconciled, never sent and never waited on as this run's own. The sandbox de-duplicates nothing and the
 * engine reaches it through a recording proxy: the POSTs counted there are the engine's, the debits the provider's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { ApplicationFailure } from '@temporalio/common';
import { createPayoutActivities, type SubmitOutcome } from '../../activities/payout-activities';
import type { IntentKey } from '../../src/intents/intent-store';
import { sqliteIntentStore } from '../../src/intents/sql-intent-store';
import { SUBMISSION_OUTCOME_UNKNOWN } from '../../src/lifecycles/payout-client';
import { createLogger } from '../../src/logging/logger';
import type { PaymentApiClient } from '../../src/payment-api/client';
import { CLAIMED_BEFORE_RESET } from '../../src/payouts/earlier-submission';
import type { PayoutInput } from '../../src/payouts/payout-input';
import { pixKeyPayoutInput } from '../helpers/payouts';
import { createSandbox } from '../../sandbox';
import { startProviderProxy, type ProviderProxy } from '../helpers/provider-proxy';
import { testConfig } from '../helpers/temporal';
import { sandboxApiClient } from '../helpers/payment-api';

const WITHDRAW = '/api/withdrawals/withdraw';
const config = testConfig({ SANDBOX_CALLBACK_MAX_ATTEMPTS: '1', SANDBOX_DEDUPLICATE: 'false' });
const sandbox = createSandbox({ config, dbPath: ':memory:', logger: createLogger({}, 'error') });
const intents = sqliteIntentStore(':memory:', { active: { id: 'k1', key: randomBytes(32) }, previous: [] });
/** The run the mock activity belongs to, as a workflow execution would say it. */
const RUN_ID = randomUUID();
let gateway: ProviderProxy;
let direct: PaymentApiClient;
let submitWithdrawal: ReturnType<typeof createPayoutActivities>['submitWithdrawal'];

const client = (baseUrl: string) => sandboxApiClient(config, baseUrl);

beforeAll(async () => {
  const { url } = await sandbox.start(0, '127.0.0.1');
  gateway = await startProviderProxy(url);
  // What an earlier attempt sent: straight to the provider, so that the proxy counts only this attempt's requests.
  direct = client(url);
  ({ submitWithdrawal } = createPayoutActivities({
    api: client(gateway.url),
    callbackBaseUrl: 'http://127.0.0.1:9',
    outcomes: { record: () => Promise.resolve() },
    announce: () => Promise.resolve({}),
    intents,
    readModel: { recordPayout: () => Promise.resolve() },
  }));
});
afterAll(async () => {
  await gateway.close();
  await sandbox.stop();
  await intents.close();
});

const newPayout = (label: string): PayoutInput => pixKeyPayoutInput(config, label);
const keyOf = (payout: PayoutInput): IntentKey => ({ businessId: payout.externalId, kind: 'payout-submission' });
/** Attempt 1 of this run's activity; `attemptsBefore` 1 is how the workflow runs its local attempt after a lost task. */
const attemptOne = (payout: PayoutInput, attemptsBefore = 0): Promise<SubmitOutcome> =>
  new MockActivityEnvironment(
    { attempt: 1, workflowExecution: { workflowId: `payout-${payout.externalId}`, runId: RUN_ID } },
    { logger: new DefaultLogger('ERROR') },
  ).run(submitWithdrawal, payout, attemptsBefore);
/** The send an earlier attempt made, whose answer the activity never saw. */
const sentEarlier = (payout: PayoutInput) =>
  direct.withdraw({
    amount: payout.amountCents / 100,
    external_id: payout.externalId,
    pix_key: '52998224725',
    key_type: 'CPF',
    clientCallbackUrl: 'http://127.0.0.1:9',
  });
const postsOf = (payout: PayoutInput) =>
  gateway.requests.filter(
    (request) => request.method === 'POST' && request.path === WITHDRAW && request.body.includes(payout.externalId),
  ).length;
const debitsOf = (payout: PayoutInput) =>
  sandbox.ledger
    .entries({ externalId: payout.externalId })
    .filter((entry) => entry.lines.some((line) => line.account.startsWith('user:') && line.amountCents < 0)).length;

/** Attempt 1 finds the earlier attempt's payout at the provider and takes it: nothing posted, one debit in all. */
async function expectReconciledWithoutSending(payout: PayoutInput, transactionId: string): Promise<void> {
  expect(await attemptOne(payout)).toMatchObject({ kind: 'accepted', reconciled: true, transactionId });
  expect(postsOf(payout)).toBe(0);
  expect(debitsOf(payout)).toBe(1);
}

describe("attempt 1 on this run's own claim (an earlier attempt claimed it, then its answer was lost)", () => {
  test('the provider has no record: nothing is posted, the attempt fails as outcome unknown and is retried', async () => {
    const payout = newPayout('own-claim-absent');
    expect(await intents.claim(keyOf(payout), RUN_ID)).toMatchObject({ by: 'this-run', fresh: true });
    const failure = await attemptOne(payout).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: SUBMISSION_OUTCOME_UNKNOWN, nonRetryable: false });
    expect(postsOf(payout)).toBe(0);
    expect(debitsOf(payout)).toBe(0);
  });

  test('the earlier attempt reached the provider: it is found and accepted as reconciled, one debit', async () => {
    const payout = newPayout('own-claim-sent');
    await intents.claim(keyOf(payout), RUN_ID);
    const earlier = await sentEarlier(payout);
    await expectReconciledWithoutSending(payout, earlier.transactionId);
    expect(await intents.find(keyOf(payout))).toMatchObject({ state: 'SENT', providerId: earlier.transactionId });
  });
});

describe('attempt 1 after a lost workflow task, on a claim it takes fresh', () => {
  test('the provider already has the payout (sent by an attempt no intent recorded): it asks first and posts nothing', async () => {
    const payout = newPayout('lost-task-sent');
    const earlier = await sentEarlier(payout);
    expect(await attemptOne(payout, 1)).toMatchObject({
      kind: 'accepted',
      reconciled: true,
      transactionId: earlier.transactionId,
    });
    expect(postsOf(payout)).toBe(0);
    expect(debitsOf(payout)).toBe(1);
  });

  test('the provider has no record: it asks, then posts once', async () => {
    const payout = newPayout('lost-task-absent');
    const checksBefore = gateway.count('POST', '/api/transactions/check');
    expect(await attemptOne(payout, 1)).toMatchObject({ kind: 'accepted', reconciled: false });
    expect(gateway.count('POST', '/api/transactions/check') - checksBefore).toBe(1);
    expect(postsOf(payout)).toBe(1);
    expect(debitsOf(payout)).toBe(1);
  });
});

describe("an earlier run's claim (a reset, or a re-run after a terminate)", () => {
  test('not found at the provider: unknown for an operator, at once, nothing posted; the earlier run keeps its claim', async () => {
    const payout = newPayout('earlier-run-absent');
    await intents.claim(keyOf(payout), 'an-earlier-run');
    expect(await attemptOne(payout)).toEqual({ kind: 'unknown', reason: CLAIMED_BEFORE_RESET });
    expect(postsOf(payout)).toBe(0);
    expect(await intents.find(keyOf(payout))).toMatchObject({ runId: 'an-earlier-run', state: 'CLAIMED' });
  });

  test('sent by the earlier run: found by the id its intent recorded and accepted as reconciled, one debit', async () => {
    const payout = newPayout('earlier-run-sent');
    await intents.claim(keyOf(payout), 'an-earlier-run');
    const earlier = await sentEarlier(payout);
    await intents.record(keyOf(payout), 'an-earlier-run', { state: 'SENT', providerId: earlier.transactionId });
    await expectReconciledWithoutSending(payout, earlier.transactionId);
  });
});
