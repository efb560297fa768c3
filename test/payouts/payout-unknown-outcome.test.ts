/**
 * A POST whose answer is lost is no proof of anything, and neither is a check that then finds nothing: the
 * provider may still be making the payout. Against a sandbox that de-duplicates nothing
 * (SANDBOX_DEDUPLICATE=false), reached through a recording proxy, the engine never posts a payout twice
 * unless the provider surely did nothing with the first POST: it looks the payout up with backoff until the
 * submission deadline, then goes to NEEDS_REVIEW saying the outcome is unknown. And once the provider
 * answered its own id, the engine asks the check by that id (rule 2), not by ours.
 */
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { pollUntil } from '../../src/util/poll';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { SANDBOX_CRYPTO_WITHDRAW_PATH } from '../../tools/stack/sandbox-provider-env';
import { SANDBOX_SERVES_CRYPTO, startEngineHarness } from '../helpers/engine-harness';
import { newExternalId, providerDebits, storeCode, waitForPayout } from '../helpers/payouts';
import { jsonAnswer, type ProviderProxy } from '../helpers/provider-proxy';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';
import { forThisFile } from '../helpers/for-this-file';

const WITHDRAW = '/api/withdrawals/withdraw';
const COPY_PASTE = '/api/payments/pix-copy-paste/pay';
const CHECK = '/api/transactions/check';
const TRON_WALLET = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
/** Short, so that a payout whose outcome stays unknown reaches review within the test. */
const SUBMIT_DEADLINE_MS = 10_000;

const stack = forThisFile(() =>
  startEngineHarness(
    {
      SANDBOX_DEDUPLICATE: 'false',
      PAYOUT_SUBMIT_DEADLINE_MS: String(SUBMIT_DEADLINE_MS),
      ACTIVITY_PROBLEM_AFTER_MS: '1500',
    },
    { providerProxy: true },
  ),
);
afterEach(() => stack.admin('DELETE', '/sandbox/faults'));

const provider = (): ProviderProxy => {
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  return stack.provider;
};
const withdraw = (externalId: string, amount: number) =>
  stack.api('POST', '/v1/payouts', { externalId, amount, pixKey: 'ana@example.com', keyType: 'EMAIL' });
/** The POSTs of one payout that the engine sent: the proxy sees each, with its body. */
const postsOf = (path: string, externalId: string) =>
  provider().requests.filter(
    (request) => request.method === 'POST' && request.path === path && request.body.includes(externalId),
  ).length;
const causeOf = (payout: PayoutResponse, state: string) =>
  payout.transitions.find((transition) => transition.to === state)?.cause;

/** In review because its one POST's answer was lost: it kept checking (with backoff), never sent again, nothing debited. */
async function expectInReviewSentOnce(review: PayoutResponse, id: string, path: string): Promise<void> {
  expect(review.status).toBe('NEEDS_REVIEW');
  expect(review.reviewReason).toMatch(
    /the outcome is unknown: an earlier attempt sent this payout and its answer was lost/,
  );
  expect(causeOf(review, 'NEEDS_REVIEW')).toBe('submission deadline passed with the outcome unknown');
  expect(
    provider().requests.filter((request) => request.path === CHECK && request.body.includes(id)).length,
  ).toBeGreaterThanOrEqual(2);
  expect(postsOf(path, id)).toBe(1);
  expect(await providerDebits(stack, id)).toBe(0);
}

test('the first POST reaches the provider late, after the engine gave up on its answer: never a second POST; the payout is found and COMPLETED, one debit', async () => {
  const id = newExternalId('late');
  // Forwarded 3 s after the engine sent it (its timeout is 2 s): the first checks find nothing, a later one finds it.
  provider().delayNext(WITHDRAW, 3_000);
  expect((await withdraw(id, 31)).status).toBe(202);
  const payout = await waitForPayout(stack, id, ['COMPLETED', 'NEEDS_REVIEW', 'FAILED'], 30_000);
  expect(payout.status).toBe('COMPLETED');
  expect(postsOf(WITHDRAW, id)).toBe(1);
  expect(await providerDebits(stack, id)).toBe(1);
  expect(causeOf(payout, 'SUBMITTED')).toBe('found at the provider by reconciliation');
});

test.each([
  ['its answer never comes', (path: string) => provider().holdNext(path)],
  [
    'the provider answers 500',
    (path: string) => provider().answerNext(path, jsonAnswer(500, { message: 'internal error' })),
  ],
])(
  'the first POST is sent and %s, and the provider has no record of it: one POST, the outcome shown as unknown while the engine looks, then NEEDS_REVIEW',
  async (what, loseAnswer) => {
    const id = newExternalId(what.startsWith('its') ? 'lost' : 'five-hundred');
    loseAnswer(WITHDRAW);
    expect((await withdraw(id, 32)).status).toBe(202);
    // While it looks, the payout says why it waits (after the first attempt's own words: no answer, or the 500).
    const problem = await pollUntil(
      async () => {
        const { body } = await stack.api<PayoutResponse>('GET', `/v1/payouts/${id}`);
        return body.status === 'RECEIVED' && body.problem?.message.includes('the outcome is unknown')
          ? body.problem
          : undefined;
      },
      { timeoutMs: SUBMIT_DEADLINE_MS, intervalMs: 200, description: 'the payout to show its outcome unknown' },
    );
    expect(problem.activity).toBe('submitWithdrawal');
    const review = await waitForPayout(stack, id, ['NEEDS_REVIEW', 'COMPLETED', 'FAILED'], SUBMIT_DEADLINE_MS + 20_000);
    await expectInReviewSentOnce(review, id, WITHDRAW);
    expect(review.reviewReason).toMatch(/not sent again/);
    if (what.startsWith('its'))
      await recordHistory(stack.temporal.client, payoutWorkflowId(id), currentPayoutHistory('outcome-unknown-review'));
  },
  60_000,
);

/** The other rails whose submission may lose its answer, each on its own route (crypto only where the provider has one; its minimum is 50). */
const OTHER_RAILS: (readonly [string, string, (externalId: string, amount: number) => Record<string, unknown>])[] = [
  [
    'pix_copy_paste',
    COPY_PASTE,
    (externalId, amount) => ({
      externalId,
      method: 'pix_copy_paste',
      emv: storeCode(amount * 100, 'LOSTANSWER'),
    }),
  ],
  ...(SANDBOX_SERVES_CRYPTO
    ? [
        [
          'crypto',
          SANDBOX_CRYPTO_WITHDRAW_PATH,
          (externalId: string, amount: number) => ({ externalId, method: 'crypto', amount, wallet: TRON_WALLET }),
        ] as const,
      ]
    : []),
];

test.each(OTHER_RAILS)(
  '%s: the first POST reaches the provider late, after the engine gave up on its answer: never a second POST; found, COMPLETED, one debit',
  async (rail, path, request) => {
    const id = newExternalId(`late-${rail}`);
    provider().delayNext(path, 3_000);
    expect((await stack.api('POST', '/v1/payouts', request(id, 56))).status).toBe(202);
    const payout = await waitForPayout(stack, id, ['COMPLETED', 'NEEDS_REVIEW', 'FAILED'], 30_000);
    expect(payout.status).toBe('COMPLETED');
    expect(postsOf(path, id)).toBe(1);
    expect(await providerDebits(stack, id)).toBe(1);
    expect(causeOf(payout, 'SUBMITTED')).toBe('found at the provider by reconciliation');
  },
);

test.each(OTHER_RAILS)(
  '%s: the first POST is sent and its answer never comes, and the provider has no record of it: one POST, then NEEDS_REVIEW',
  async (rail, path, request) => {
    const id = newExternalId(`lost-${rail}`);
    provider().holdNext(path);
    expect((await stack.api('POST', '/v1/payouts', request(id, 57))).status).toBe(202);
    const review = await waitForPayout(stack, id, ['NEEDS_REVIEW', 'COMPLETED', 'FAILED'], SUBMIT_DEADLINE_MS + 20_000);
    await expectInReviewSentOnce(review, id, path);
  },
  60_000,
);

test("a cancel while the engine looks for a payout whose answer was lost is refused (the provider's silence proves nothing): the payout goes to review, where the operator's cancel ends it", async () => {
  const id = newExternalId('cancel-unknown');
  provider().holdNext(WITHDRAW);
  expect((await withdraw(id, 35)).status).toBe(202);
  await pollUntil(
    async () =>
      (await stack.intents.find({ businessId: id, kind: 'payout-submission' }))?.state === 'UNKNOWN' ? true : undefined,
    {
      timeoutMs: 15_000,
      intervalMs: 100,
      description: 'the send to lose its answer',
    },
  );
  const refused = await stack.api<{ code: string; message: string }>('POST', `/v1/payouts/${id}/cancel`, {
    reason: 'merchant changed their mind',
  });
  expect([refused.status, refused.body.code]).toEqual([409, 'PAYOUT_NOT_CANCELLABLE']);
  expect(refused.body.message).toMatch(/could not confirm that it has no record/);
  const review = await waitForPayout(stack, id, ['NEEDS_REVIEW'], 15_000);
  expect(review.reviewReason).toMatch(/no proof that it will not make it/);
  const cancelled = await stack.api<PayoutResponse>('POST', `/v1/payouts/${id}/cancel`, {
    reason: 'provider statement checked by the operator',
  });
  expect([cancelled.status, cancelled.body.status]).toEqual([200, 'CANCELLED']);
  expect(postsOf(WITHDRAW, id)).toBe(1);
});

test('a 503 says the provider did nothing with the POST: it is sent again, and the payout COMPLETED with one debit', async () => {
  const id = newExternalId('unavailable');
  provider().answerNext(WITHDRAW, {
    status: 503,
    contentType: 'text/html',
    body: '<h1>503 Service Temporarily Unavailable</h1>',
  });
  expect((await withdraw(id, 33)).status).toBe(202);
  const payout = await waitForPayout(stack, id, ['COMPLETED', 'NEEDS_REVIEW', 'FAILED'], 30_000);
  expect(payout.status).toBe('COMPLETED');
  expect(postsOf(WITHDRAW, id)).toBe(2);
  expect(await providerDebits(stack, id)).toBe(1);
});

test.each([
  [
    'pix_key',
    WITHDRAW,
    (externalId: string) => ({ externalId, amount: 34, pixKey: 'ana@example.com', keyType: 'EMAIL' }),
  ],
  [
    'pix_copy_paste',
    COPY_PASTE,
    (externalId: string) => ({
      externalId,
      method: 'pix_copy_paste',
      emv: storeCode(3_500, 'CHECKID'),
    }),
  ],
])(
  '%s: once the provider answered its own id, the check asks by that id (rule 2), not by ours',
  async (_rail, path, request) => {
    // Without the callback the payout polls the check, which settles it.
    await stack.admin('PUT', '/sandbox/faults', { callbacks: { drop: { count: 1 } } });
    const id = newExternalId('by-provider-id');
    const requestsBefore = provider().requests.length;
    expect((await stack.api('POST', '/v1/payouts', request(id))).status).toBe(202);
    const payout = await waitForPayout(stack, id, ['COMPLETED'], 30_000);
    expect(payout.callbacksReceived).toBe(0);
    const providerId = payout.providerTransactionId ?? '';
    expect(providerId).not.toBe(id);
    const sent = provider().requests.slice(requestsBefore);
    const posted = sent.findIndex((request) => request.path === path && request.body.includes(id));
    const checksAfter = sent.slice(posted + 1).filter((request) => request.path === CHECK);
    expect(checksAfter.length).toBeGreaterThanOrEqual(1);
    expect(checksAfter.map((request) => (JSON.parse(request.body) as { transactionId: string }).transactionId)).toEqual(
      checksAfter.map(() => providerId),
    );
  },
);

test("a payout whose POST reached the provider only after the submission deadline: in review, then found by the operator's recheck and SUBMITTED again; the list shows where it is now, not the review it left", async () => {
  const id = newExternalId('review-left');
  const listedStatus = async (): Promise<string | undefined> => {
    const page = await stack.api<{ data: { externalId: string; status: string }[] }>('GET', '/v1/payouts?limit=500');
    return page.body.data.find((item) => item.externalId === id)?.status;
  };
  // Forwarded after the engine stopped looking: the payout goes to review with the outcome unknown, then the
  // provider makes it (.14: the sandbox keeps it PROCESSING until told otherwise).
  provider().delayNext(WITHDRAW, SUBMIT_DEADLINE_MS + 3_000);
  expect((await withdraw(id, 36.14)).status).toBe(202);
  await waitForPayout(stack, id, ['NEEDS_REVIEW'], SUBMIT_DEADLINE_MS + 20_000);
  await pollUntil(async () => ((await listedStatus()) === 'NEEDS_REVIEW' ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 200,
    description: `${id} listed in review`,
  });
  const transactionId = await pollUntil(
    async () => {
      const recheck = await stack.api<PayoutResponse>('POST', `/v1/payouts/${id}/recheck`);
      return recheck.body.status === 'SUBMITTED' ? recheck.body.providerTransactionId : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 1_000, description: `${id} found at the provider by a recheck` },
  );
  const submitted = await waitForPayout(stack, id, ['SUBMITTED']);
  expect(causeOf(submitted, 'SUBMITTED')).toBe('found at the provider on recheck');
  await pollUntil(async () => ((await listedStatus()) === 'SUBMITTED' ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 200,
    description: `${id} listed SUBMITTED once out of review`,
  });

  const forced = await stack.admin('POST', `/sandbox/operations/${transactionId}/outcome`, { status: 'COMPLETED' });
  expect(forced.status).toBeLessThan(300);
  await waitForPayout(stack, id, ['COMPLETED']);
  await pollUntil(async () => ((await listedStatus()) === 'COMPLETED' ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 200,
    description: `${id} listed COMPLETED`,
  });
  expect(postsOf(WITHDRAW, id)).toBe(1);
  await recordHistory(stack.temporal.client, payoutWorkflowId(id), currentPayoutHistory('review-left-listed'));
}, 90_000);
