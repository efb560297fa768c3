/**
 * Operators reset payouts (the Temporal UI's Reset button, `temporal workflow reset`, by query after a
 * bad deploy): the run a reset makes runs the payout's activities again. Against a sandbox that does NOT
 * de-duplicate by external_id (SANDBOX_DEDUPLICATE=false), every rail is reset with the real CLI to its
 * first workflow task, its last one and every workflow task in between (after the submission, after the
 * callback, after the check), and the provider holds exactly one operation per payout whatever the point.
 */
import { randomUUID } from 'node:crypto';
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { CLAIMED_BEFORE_RESET, SENT_BEFORE_RESET } from '../../src/payouts/earlier-submission';
import { pollUntil } from '../../src/util/poll';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { SANDBOX_SERVES_CRYPTO, startEngineHarness } from '../helpers/engine-harness';
import { providerDebits, RAIL_REQUESTS, waitForPayout, type PayoutRail } from '../helpers/payouts';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';
import {
  describePoint,
  providerOperations,
  resetAndWait,
  temporalCli,
  workflowTaskCompletedEvents,
  type ResetPoint,
} from '../helpers/workflow-reset';
import { forThisFile } from '../helpers/for-this-file';

/** Payouts of the batch reset by query: ~50 in `npm test`, more with RESET_BATCH_PAYOUTS. */
const BATCH_PAYOUTS = Number(process.env.RESET_BATCH_PAYOUTS ?? 48);

// The provider's timeout at its default: 48 payouts reset at once on a loaded machine are slow, not lost (an
// internal transfer whose answer times out goes to review by design, which is not what this file tests).
const stack = forThisFile(() => startEngineHarness({ SANDBOX_DEDUPLICATE: 'false', PAYMENT_API_TIMEOUT_MS: '10000' }));

/** Every rail the sandbox of this run serves (the seed profile shows no crypto route: the engine's crypto rail is off there). */
const SERVED_RAILS = (Object.keys(RAIL_REQUESTS) as PayoutRail[]).filter(
  (rail) => rail !== 'crypto' || SANDBOX_SERVES_CRYPTO,
);

async function completedPayout(rail: PayoutRail, label: string): Promise<string> {
  const externalId = `reset-${label}-${randomUUID().slice(0, 8)}`;
  expect((await stack.api('POST', '/v1/payouts', RAIL_REQUESTS[rail](externalId))).status).toBe(202);
  await waitForPayout(stack, externalId, ['COMPLETED']);
  return externalId;
}

/** The provider made one operation for it, and (where it debits by external_id) one debit. */
async function expectOneMoneyMovement(rail: PayoutRail, externalId: string): Promise<void> {
  expect({ externalId, operations: await providerOperations(stack, externalId, rail) }).toEqual({
    externalId,
    operations: 1,
  });
  if (rail !== 'internal')
    expect({ externalId, debits: await providerDebits(stack, externalId) }).toEqual({ externalId, debits: 1 });
}

describe.each(SERVED_RAILS)('%s payout', (rail) => {
  test('reset to its first task, its last task and each workflow task between: COMPLETED again, one operation at the provider', async () => {
    const probe = await completedPayout(rail, rail);
    const taskEvents = await workflowTaskCompletedEvents(stack, payoutWorkflowId(probe));
    expect(taskEvents.length).toBeGreaterThanOrEqual(2);
    // Each point on a payout of its own, all at once (the probe takes the first).
    const points: ResetPoint[] = [
      { type: 'FirstWorkflowTask' },
      { type: 'LastWorkflowTask' },
      ...taskEvents.map((eventId) => ({ eventId })),
    ];
    const payouts = [probe, ...(await Promise.all(points.slice(1).map(() => completedPayout(rail, rail))))];
    const pointOf = async (externalId: string, index: number): Promise<ResetPoint> => {
      const point = points[index] as ResetPoint;
      if ('type' in point) return point;
      // This payout's own k-th workflow task (histories of one rail may differ by a task where the callback raced the check).
      const own = await workflowTaskCompletedEvents(stack, payoutWorkflowId(externalId));
      return { eventId: own[Math.min(index - 2, own.length - 1)] as number };
    };
    const outcomes = await Promise.all(
      payouts.map(async (externalId, index) => {
        const point = await pointOf(externalId, index);
        return { point: describePoint(point), status: await resetAndWait(stack, payoutWorkflowId(externalId), point) };
      }),
    );
    expect(outcomes.every((outcome) => outcome.status === 'COMPLETED')).toBe(true);
    for (const externalId of payouts) {
      const payout = (await stack.api<PayoutResponse>('GET', `/v1/payouts/${externalId}`)).body;
      expect(payout.status).toBe('COMPLETED');
      await expectOneMoneyMovement(rail, externalId);
    }
  }, 180_000);
});

test('one payout reset again and again (first task, last task, first task): still one transfer', async () => {
  const externalId = await completedPayout('internal', 'again');
  for (const type of ['FirstWorkflowTask', 'LastWorkflowTask', 'FirstWorkflowTask'] as const) {
    expect(await resetAndWait(stack, payoutWorkflowId(externalId), { type })).toBe('COMPLETED');
  }
  const payout = (await stack.api<PayoutResponse>('GET', `/v1/payouts/${externalId}`)).body;
  expect(payout).toMatchObject({ status: 'COMPLETED', method: 'internal' });
  expect(payout.transitions.map((transition) => transition.cause)).toContain('found at the provider by reconciliation');
  await expectOneMoneyMovement('internal', externalId);
  await recordHistory(
    stack.temporal.client,
    payoutWorkflowId(externalId),
    currentPayoutHistory('internal-reset-reconciled'),
  );
}, 120_000);

test("a payout the provider failed after accepting it, reset to its first task: FAILED again from the provider's record, one operation", async () => {
  const externalId = `reset-failed-${randomUUID().slice(0, 8)}`;
  expect((await stack.api('POST', '/v1/payouts', { ...RAIL_REQUESTS.pix_key(externalId), amount: 3.13 })).status).toBe(
    202,
  );
  await waitForPayout(stack, externalId, ['FAILED']);
  expect(await resetAndWait(stack, payoutWorkflowId(externalId), { type: 'FirstWorkflowTask' })).toBe('COMPLETED');
  const again = (await stack.api<PayoutResponse>('GET', `/v1/payouts/${externalId}`)).body;
  // The reason is the callback's when its reapplied signal comes first, else the check's (which names only FALHA).
  expect(again).toMatchObject({
    status: 'FAILED',
    failureReason: expect.stringMatching(/sandbox rule|FALHA/) as unknown,
  });
  await expectOneMoneyMovement('pix_key', externalId);
}, 120_000);

test('a payout the provider refused at request time (nothing moved) is sent again by a reset: the refusal is not a claim', async () => {
  const externalId = `reset-refused-${randomUUID().slice(0, 8)}`;
  expect(
    (await stack.api('POST', '/v1/payouts', { ...RAIL_REQUESTS.internal(externalId), email: 'nobody@example.com' }))
      .status,
  ).toBe(202);
  await waitForPayout(stack, externalId, ['FAILED']);
  expect(await stack.intents.find({ businessId: externalId, kind: 'payout-submission' })).toMatchObject({
    state: 'REFUSED',
  });
  expect(await resetAndWait(stack, payoutWorkflowId(externalId), { type: 'FirstWorkflowTask' })).toBe('COMPLETED');
  // Refused again (the e-mail is still nobody's), by a request this run made: the intent is the new run's.
  const intent = await stack.intents.find({ businessId: externalId, kind: 'payout-submission' });
  expect(intent).toMatchObject({
    state: 'REFUSED',
    runId: (await stack.temporal.client.workflow.getHandle(payoutWorkflowId(externalId)).describe()).runId,
  });
  expect(await providerOperations(stack, externalId, 'internal')).toBe(0);
}, 120_000);

describe('an intent claimed by an earlier run that sent nothing (the run ended between the claim and the send)', () => {
  /** A payout of `rail` posted after an earlier run claimed its submission intent: it goes to review. */
  async function inReviewAfterAnEarlierClaim(
    rail: PayoutRail,
  ): Promise<{ externalId: string; review: PayoutResponse }> {
    const externalId = `reset-claimed-${randomUUID().slice(0, 8)}`;
    await stack.intents.claim({ businessId: externalId, kind: 'payout-submission' }, 'an-earlier-run');
    expect((await stack.api('POST', '/v1/payouts', RAIL_REQUESTS[rail](externalId))).status).toBe(202);
    return { externalId, review: await waitForPayout(stack, externalId, ['NEEDS_REVIEW']) };
  }

  test('an internal transfer is not sent: NEEDS_REVIEW, "sent before a reset; the provider cannot be asked"; the operator cancels it', async () => {
    const { externalId, review } = await inReviewAfterAnEarlierClaim('internal');
    expect(review.reviewReason).toBe(SENT_BEFORE_RESET);
    expect(await providerOperations(stack, externalId, 'internal')).toBe(0);
    const cancelled = await stack.api<PayoutResponse>('POST', `/v1/payouts/${externalId}/cancel`, {
      reason: 'the earlier run never sent it: checked by the operator',
    });
    expect(cancelled.body.status).toBe('CANCELLED');
  });

  test('a PIX-key payout asks the provider instead of sending: not found, NEEDS_REVIEW; a recheck asks again; a cancel ends it', async () => {
    const { externalId, review } = await inReviewAfterAnEarlierClaim('pix_key');
    expect(review.reviewReason).toBe(CLAIMED_BEFORE_RESET);
    const recheck = await stack.api<PayoutResponse>('POST', `/v1/payouts/${externalId}/recheck`);
    expect(recheck.status).toBe(200);
    expect(recheck.body.status).toBe('NEEDS_REVIEW');
    expect(await providerOperations(stack, externalId, 'pix_key')).toBe(0);
    const cancelled = await stack.api<PayoutResponse>('POST', `/v1/payouts/${externalId}/cancel`, {});
    expect(cancelled.body.status).toBe('CANCELLED');
  });
});

test(
  `a batch reset by query (${BATCH_PAYOUTS} payouts of every rail, FirstWorkflowTask): each payout completes again with one operation at the provider`,
  async () => {
    const rails = SERVED_RAILS;
    const batchLabel = randomUUID().slice(0, 8);
    const items = Array.from({ length: BATCH_PAYOUTS }, (_, index) => {
      const rail = rails[index % rails.length] as PayoutRail;
      return { rail, body: RAIL_REQUESTS[rail](`reset-batch-${batchLabel}-${index}`) };
    });
    const accepted = await stack.api<{ batchId: string }>('POST', '/v1/payout-batches', {
      items: items.map((item) => item.body),
    });
    expect(accepted.status).toBe(202);
    const { batchId } = accepted.body;
    await pollUntil(
      async () =>
        (await stack.api<{ done: boolean; finishedAt?: string }>('GET', `/v1/payout-batches/${batchId}`)).body
          .finishedAt
          ? true
          : undefined,
      {
        timeoutMs: 180_000,
        intervalMs: 500,
        description: `batch ${batchId} to finish`,
      },
    );
    // Every payout COMPLETED before the reset: a batch can also finish with a payout in review (an answer lost
    // on a loaded machine), and a reset cannot complete what was never confirmed; said here, not after the reset.
    const notCompleted = (
      await Promise.all(
        items.map(async ({ body }) => (await stack.api<PayoutResponse>('GET', `/v1/payouts/${body.externalId}`)).body),
      )
    ).filter((payout) => payout.status !== 'COMPLETED');
    expect(
      notCompleted.map(
        (payout) => `${payout.externalId}: ${payout.status} (${payout.reviewReason ?? payout.failureReason ?? ''})`,
      ),
    ).toEqual([]);
    const runsBefore = new Map(
      await Promise.all(
        items.map(
          async ({ body }) =>
            [
              body.externalId,
              (await stack.temporal.client.workflow.getHandle(payoutWorkflowId(body.externalId)).describe()).runId,
            ] as const,
        ),
      ),
    );

    await temporalCli(
      stack,
      'workflow',
      'reset',
      '--query',
      `WorkflowType = 'payoutWorkflow' AND BatchId = '${batchId}'`,
      '--type',
      'FirstWorkflowTask',
      '--reason',
      'test: batch reset after a bad deploy',
      '--yes',
    );

    // Each payout's run made by the reset, once closed; what is still open or not COMPLETED is named on a timeout.
    let pending: string[] = [];
    await pollUntil(
      async () => {
        const states = await Promise.all(
          items.map(async ({ body }) => {
            const now = await stack.temporal.client.workflow.getHandle(payoutWorkflowId(body.externalId)).describe();
            const reset = now.runId !== runsBefore.get(body.externalId);
            if (reset && now.status.name === 'COMPLETED') return undefined;
            const payout = (await stack.api<PayoutResponse>('GET', `/v1/payouts/${body.externalId}`)).body;
            const last = payout.transitions.at(-1);
            return `${body.externalId}: ${reset ? 'reset' : 'not reset'}, ${now.status.name}, ${payout.status}${last ? ` since "${last.cause}"` : ''}${payout.problem ? `, problem ${JSON.stringify(payout.problem)}` : ''}`;
          }),
        );
        pending = states.filter((state): state is string => state !== undefined);
        return pending.length === 0 ? true : undefined;
      },
      // Generous: the server's batch job, then every re-run asking the provider, on a machine the whole suite shares.
      {
        timeoutMs: Math.max(360_000, BATCH_PAYOUTS * 7_500),
        intervalMs: 1_000,
        description: `every payout of ${batchId} reset and completed again`,
      },
    ).catch((error: unknown) => {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}; ${pending.length} left: ${pending.slice(0, 5).join('; ')}`,
      );
    });
    for (const { rail, body } of items) await expectOneMoneyMovement(rail, body.externalId);
  },
  240_000 + Math.max(360_000, BATCH_PAYOUTS * 7_500),
);
