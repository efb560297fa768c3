/**
 * What the payout activities leave behind, each on its own (outside any workflow): the intent a submission records
 * (SENT with the provider's id, REFUSED after a clear refusal, UNKNOWN after an answer that proves nothing), the row
 * the API lists once the provider took it, the URL the provider calls back, a 409 sent to review without retries,
 * "not found" after a lost answer read as unknowable, and a final payout's batch outcome, row and events.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { ApplicationFailure } from '@temporalio/common';
import { createPayoutActivities, type SubmitOutcome } from '../../activities/payout-activities';
import { sqliteIntentStore } from '../../src/intents/sql-intent-store';
import { payoutInput, settlementOf, type PayoutSettlement, type PayoutView } from '../../src/lifecycles/payout-client';
import { createLogger } from '../../src/logging/logger';
import type { Announcement } from '../../src/merchant-events/announce';
import { sandboxApiClient } from '../helpers/payment-api';
import { LOST_ANSWER_NOT_FOUND } from '../../src/payouts/earlier-submission';
import { payoutTiming, type PayoutInput } from '../../src/payouts/payout-input';
import { pixKeyPayoutInput } from '../helpers/payouts';
import { payoutOfView, submittedPayout, type PayoutRecord } from '../../src/read-model/payout-records';
import { createSandbox } from '../../sandbox';
import { jsonAnswer, startProviderProxy, type ProviderProxy } from '../helpers/provider-proxy';
import { testConfig } from '../helpers/temporal';

const WITHDRAW = '/api/withdrawals/withdraw';
const INTERNAL = '/api/transactions/internal';
const CALLBACK_BASE = 'http://127.0.0.1:9';
const config = testConfig({ SANDBOX_CALLBACK_MAX_ATTEMPTS: '1' });
const sandbox = createSandbox({ config, dbPath: ':memory:', logger: createLogger({}, 'error') });
const intents = sqliteIntentStore(':memory:', { active: { id: 'k1', key: randomBytes(32) }, previous: [] });
const rows: PayoutRecord[] = [];
const batchOutcomes: [string, PayoutSettlement][] = [];
const announced: Announcement[] = [];
let gateway: ProviderProxy;
let activities: ReturnType<typeof createPayoutActivities>;

beforeAll(async () => {
  const { url } = await sandbox.start(0, '127.0.0.1');
  gateway = await startProviderProxy(url);
  activities = createPayoutActivities({
    api: sandboxApiClient(config, gateway.url, 5_000),
    callbackBaseUrl: CALLBACK_BASE,
    outcomes: {
      record: (batchId, settlement) => {
        batchOutcomes.push([batchId, settlement]);
        return Promise.resolve();
      },
    },
    announce: (announcement) => {
      announced.push(announcement);
      return Promise.resolve({});
    },
    intents,
    readModel: {
      recordPayout: (row) => {
        rows.push(row);
        return Promise.resolve();
      },
    },
  });
});
afterAll(async () => {
  await gateway.close();
  await sandbox.stop();
  await intents.close();
});

const newPayout = (label: string, batchId?: string): PayoutInput => pixKeyPayoutInput(config, label, batchId);
const intentOf = (payout: PayoutInput) => intents.find({ businessId: payout.externalId, kind: 'payout-submission' });
const submit = (payout: PayoutInput): Promise<SubmitOutcome> =>
  new MockActivityEnvironment(
    { attempt: 1, workflowExecution: { workflowId: `payout-${payout.externalId}`, runId: randomUUID() } },
    { logger: new DefaultLogger('ERROR') },
  ).run(activities.submitWithdrawal, payout);
const failureOf = (payout: PayoutInput) => submit(payout).catch((error: unknown) => error);
const rowsOf = (payout: PayoutInput) => rows.filter((row) => row.externalId === payout.externalId);
/** An internal transfer to the sandbox's recipient: a rail with no callbacks. */
const newInternalPayout = (label: string, amountCents: number): PayoutInput =>
  payoutInput(
    {
      method: 'internal',
      externalId: `${label}-${randomUUID().slice(0, 8)}`,
      amountCents,
      email: 'recipient@sandbox.test',
    },
    payoutTiming(config),
  );
/** The submission once the provider answers its POST to `path` with `status` and `message`. */
const submitAnswered = (payout: PayoutInput, path: string, status: number, message: string) => {
  gateway.answerNext(path, jsonAnswer(status, { message }));
  return submit(payout);
};
/** The submission made nothing: its intent is left `state`, and the payout is not listed. */
const expectNothingListed = async (payout: PayoutInput, state: string) => {
  expect(await intentOf(payout)).toMatchObject({ state });
  expect(rowsOf(payout)).toEqual([]);
};

describe('a submission', () => {
  test("the provider takes it: the intent is SENT with the provider's id, the payout is listed SUBMITTED, the callback URL is the rail's", async () => {
    const payout = newPayout('taken');
    const outcome = await submit(payout);
    if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${outcome.kind}`);
    expect(await intentOf(payout)).toMatchObject({ state: 'SENT', providerId: outcome.transactionId });
    expect(rowsOf(payout)).toEqual([submittedPayout(payout, outcome)]);
    const post = gateway.requests.find(
      (request) => request.path === WITHDRAW && request.body.includes(payout.externalId),
    );
    expect(JSON.parse(post!.body)).toMatchObject({ clientCallbackUrl: `${CALLBACK_BASE}/callbacks/withdrawals` });
  });

  test('an internal transfer (a rail with no callbacks) is made and listed SUBMITTED', async () => {
    const payout = newInternalPayout('internal', 700);
    const outcome = await submit(payout);
    if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(outcome)}`);
    expect(rowsOf(payout)).toEqual([submittedPayout(payout, outcome)]);
  });

  test('an internal transfer whose answer is lost (a 500 after it left): unknown, the intent UNKNOWN, so no later run sends it again', async () => {
    const payout = newInternalPayout('internal-lost', 800);
    const outcome = await submitAnswered(payout, INTERNAL, 500, 'internal error');
    expect(outcome).toMatchObject({ kind: 'unknown', reason: expect.stringContaining('may have been made') });
    await expectNothingListed(payout, 'UNKNOWN');
  });

  test("the provider refuses it (422): rejected with the provider's words, the intent REFUSED, nothing listed", async () => {
    const payout = newPayout('refused');
    const outcome = await submitAnswered(payout, WITHDRAW, 422, 'pix key blocked by the bank');
    expect(outcome).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('pix key blocked') });
    await expectNothingListed(payout, 'REFUSED');
  });

  test('the provider answers 409: not retried (the payout goes to review), the intent UNKNOWN, nothing listed', async () => {
    const payout = newPayout('conflict');
    gateway.answerNext(WITHDRAW, jsonAnswer(409, { message: 'duplicated external id' }));
    const failure = await failureOf(payout);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'Conflict', nonRetryable: true });
    await expectNothingListed(payout, 'UNKNOWN');
  });

  test('a 500 after the POST left: retried, the intent UNKNOWN, so a later attempt only looks', async () => {
    const payout = newPayout('failed');
    gateway.answerNext(WITHDRAW, jsonAnswer(500, { message: 'internal error' }));
    const failure = await failureOf(payout);
    expect(failure).not.toBeInstanceOf(ApplicationFailure);
    expect(await intentOf(payout)).toMatchObject({ state: 'UNKNOWN' });
  });
});

test("a claim an earlier run holds is reconciled, and the operator's log says which run holds it and what became of it", async () => {
  const payout = newPayout('earlier-claim');
  await intents.claim({ businessId: payout.externalId, kind: 'payout-submission' }, 'an-earlier-run');
  const warnings: { message: string; meta?: Record<string, unknown> }[] = [];
  const logger = new DefaultLogger('WARN', ({ level, message, meta }) => {
    if (level === 'WARN') warnings.push({ message, meta });
  });
  const outcome = await new MockActivityEnvironment(
    { attempt: 1, workflowExecution: { workflowId: `payout-${payout.externalId}`, runId: randomUUID() } },
    { logger },
  ).run(activities.submitWithdrawal, payout);
  expect(outcome).toMatchObject({ kind: 'unknown' });
  expect(warnings).toContainEqual({
    message: 'payout.intent_claimed_earlier',
    meta: expect.objectContaining({
      externalId: payout.externalId,
      intentState: 'CLAIMED',
      claimedByRun: 'an-earlier-run',
      outcome: 'unknown',
    }),
  });
});

describe('where a payout stands', () => {
  test('a payout the provider has is found, by reference or by external id alone (payouts started before the rails)', async () => {
    const payout = newPayout('found');
    const outcome = await submit(payout);
    if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${outcome.kind}`);
    const found = { kind: 'found', transactionId: outcome.transactionId };
    expect(await activities.checkWithdrawal({ externalId: payout.externalId, method: 'pix_key' })).toMatchObject(found);
    expect(await activities.checkWithdrawal(payout.externalId)).toMatchObject(found);
  });

  test('a payout the provider has is found even when the send that made it lost its answer (intent UNKNOWN)', async () => {
    const payout = newPayout('found-after-lost-answer');
    const outcome = await submit(payout);
    if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${outcome.kind}`);
    const { runId } = (await intentOf(payout))!;
    await intents.record({ businessId: payout.externalId, kind: 'payout-submission' }, runId, { state: 'UNKNOWN' });
    expect(await intentOf(payout)).toMatchObject({ state: 'UNKNOWN' });
    expect(await activities.checkWithdrawal(payout.externalId)).toMatchObject({
      kind: 'found',
      transactionId: outcome.transactionId,
    });
  });

  test('not found is not-found, unless a send of it lost its answer (intent UNKNOWN): then it is unknowable', async () => {
    const never = newPayout('never-sent');
    expect(await activities.checkWithdrawal(never.externalId)).toMatchObject({ kind: 'not-found' });
    const lost = newPayout('lost-answer');
    await intents.claim({ businessId: lost.externalId, kind: 'payout-submission' }, 'run-1');
    expect(await activities.checkWithdrawal(lost.externalId)).toMatchObject({ kind: 'not-found' });
    await intents.record({ businessId: lost.externalId, kind: 'payout-submission' }, 'run-1', { state: 'UNKNOWN' });
    expect(await activities.checkWithdrawal({ externalId: lost.externalId })).toEqual({
      kind: 'unknowable',
      reason: LOST_ANSWER_NOT_FOUND,
    });
  });
});

describe('a final payout', () => {
  const viewOf = (payout: PayoutInput, state: PayoutView['state']): PayoutView => ({
    ...submittedPayout(payout, {
      kind: 'accepted',
      transactionId: `tx-${payout.externalId}`,
      reconciled: false,
    } as never).view,
    state,
  });
  const event = (payout: PayoutInput, seq: number): Announcement => ({
    sourceId: `payout-${payout.externalId}`,
    seq,
    type: 'payout.completed',
    occurredAt: '2026-11-28T00:00:00.000Z',
    data: { seq },
  });

  test('of a batch: its outcome goes to the batch, its row to the list, its events out in order; alone: no batch outcome', async () => {
    const inBatch = newPayout('batch-member', 'batch-1');
    const view = viewOf(inBatch, 'COMPLETED');
    await activities.settlePayout(view, [event(inBatch, 0), event(inBatch, 1)]);
    expect(batchOutcomes.filter(([batchId]) => batchId === 'batch-1')).toEqual([['batch-1', settlementOf(view)]]);
    expect(rowsOf(inBatch)).toEqual([payoutOfView(view)]);
    expect(announced.filter((a) => a.sourceId === `payout-${inBatch.externalId}`).map((a) => a.seq)).toEqual([0, 1]);

    const alone = newPayout('alone');
    const before = batchOutcomes.length;
    await activities.settlePayout(viewOf(alone, 'FAILED'), []);
    expect(batchOutcomes).toHaveLength(before);
    expect(rowsOf(alone)).toEqual([payoutOfView(viewOf(alone, 'FAILED'))]);
  });

  test('gone to review: its batch outcome and its row, and no batch outcome for a payout alone', async () => {
    const inBatch = newPayout('review-member', 'batch-2');
    const view = viewOf(inBatch, 'NEEDS_REVIEW');
    await activities.recordPayoutReview(view);
    expect(batchOutcomes.filter(([batchId]) => batchId === 'batch-2')).toEqual([['batch-2', settlementOf(view)]]);
    expect(rowsOf(inBatch)).toEqual([payoutOfView(view)]);
    const alone = newPayout('review-alone');
    const before = batchOutcomes.length;
    await activities.recordPayoutReview(viewOf(alone, 'NEEDS_REVIEW'));
    expect(batchOutcomes).toHaveLength(before);
    expect(rowsOf(alone)).toHaveLength(1);
  });

  test("a batch's payout records where it stands", async () => {
    const view = viewOf(newPayout('batch-record', 'batch-3'), 'COMPLETED');
    await activities.recordBatchOutcome('batch-3', settlementOf(view));
    expect(batchOutcomes.filter(([batchId]) => batchId === 'batch-3')).toEqual([['batch-3', settlementOf(view)]]);
  });
});
