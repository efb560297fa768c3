/**
 * An operator terminates payouts mid-submission (`temporal workflow terminate`, the real CLI): the
 * request has reached the provider and its answer has not come back. The payout's view says the workflow
 * was terminated and what its submission intent holds; `POST /v1/payouts/:id/recheck` (or the CLI's
 * `payouts reconcile`) re-runs it, and the re-run settles it from the provider (or sends it to review where
 * the provider cannot be asked) without sending it again. The sandbox does not de-duplicate by
 * external_id: one operation proves the engine.
 */
import { randomUUID } from 'node:crypto';
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { runPayoutsCli } from '../../src/cli/payouts-cli';
import { SENT_BEFORE_RESET } from '../../src/payouts/earlier-submission';
import { pollUntil } from '../../src/util/poll';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { engineForThisFile, SANDBOX_SERVES_CRYPTO } from '../helpers/engine-harness';
import { RAIL_REQUESTS, waitForPayout, type PayoutRail } from '../helpers/payouts';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';
import { providerOperations, terminateWorkflow } from '../helpers/workflow-reset';

// The provider's answer is awaited 60 s: the terminate always lands while the submission waits (CLAIMED), never
// after a loaded machine let the attempt give up and reconcile on its own.
const stack = engineForThisFile({ SANDBOX_DEDUPLICATE: 'false', PAYMENT_API_TIMEOUT_MS: '60000' });

/** `payouts reconcile <id>` as an operator runs it against this stack: its exit code and what it printed. */
async function reconcile(externalId: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runPayoutsCli(['reconcile', externalId], {
    env: { PAYOUTS_API_URL: stack.apiUrl, PAYOUTS_API_KEY: stack.config.ENGINE_API_KEYS[0]?.secret ?? '' },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readFile: () => Promise.reject(new Error('reconcile reads no file')),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  return { code, stdout, stderr };
}

/** Submits a payout whose request the provider commits and never answers, and terminates it once the provider holds it. */
async function terminatedMidSubmission(rail: PayoutRail): Promise<string> {
  const externalId = `term-${rail}-${randomUUID().slice(0, 8)}`;
  await stack.admin('PUT', '/sandbox/faults', { timeoutAfterCommit: { count: 1, mode: 'hang' } });
  expect((await stack.api('POST', '/v1/payouts', RAIL_REQUESTS[rail](externalId))).status).toBe(202);
  await pollUntil(async () => ((await providerOperations(stack, externalId, rail)) === 1 ? true : undefined), {
    timeoutMs: 20_000,
    intervalMs: 50,
    description: `the provider to hold ${externalId}`,
  });
  await terminateWorkflow(stack, payoutWorkflowId(externalId), 'test: operator terminates mid-submission');
  return externalId;
}

// Crypto where the sandbox has a route for it (not the seed profile, which shows none).
test.each(
  SANDBOX_SERVES_CRYPTO ? (['pix_key', 'pix_copy_paste', 'crypto'] as const) : (['pix_key', 'pix_copy_paste'] as const),
)(
  'a %s payout terminated mid-submission: the view says TERMINATED with its intent CLAIMED; recheck re-runs it, found at the provider, COMPLETED, one operation',
  async (rail) => {
    const externalId = await terminatedMidSubmission(rail);
    const view = await stack.api<PayoutResponse>('GET', `/v1/payouts/${externalId}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ workflowStatus: 'TERMINATED', submission: { intent: 'CLAIMED' } });

    const recheck = await stack.api<PayoutResponse>('POST', `/v1/payouts/${externalId}/recheck`);
    expect(recheck.status).toBe(200);
    expect(recheck.body.workflowStatus).toBeUndefined();
    const done = await waitForPayout(stack, externalId, ['COMPLETED']);
    expect(done.transitions.map((transition) => transition.cause)).toContain('found at the provider by reconciliation');
    expect(await providerOperations(stack, externalId, rail)).toBe(1);
    if (rail === 'pix_key')
      await recordHistory(
        stack.temporal.client,
        payoutWorkflowId(externalId),
        currentPayoutHistory('rerun-after-terminate'),
      );
  },
  90_000,
);

test('an internal transfer terminated mid-submission: `payouts reconcile` re-runs it into NEEDS_REVIEW ("sent before a reset; the provider cannot be asked"), exit 2, never a second transfer', async () => {
  const externalId = await terminatedMidSubmission('internal');
  const view = await stack.api<PayoutResponse>('GET', `/v1/payouts/${externalId}`);
  expect(view.body).toMatchObject({ workflowStatus: 'TERMINATED', submission: { intent: 'CLAIMED' } });

  const reconciled = await reconcile(externalId);
  const review = await waitForPayout(stack, externalId, ['NEEDS_REVIEW']);
  expect(review.reviewReason).toBe(SENT_BEFORE_RESET);
  // The re-run reaches review at once (nothing to ask); a loaded machine may answer its view before it did.
  expect([reconciled, await reconcile(externalId)]).toContainEqual({
    code: 2,
    stdout: `Payout ${externalId}: NEEDS_REVIEW: ${SENT_BEFORE_RESET}.\n`,
    stderr: '',
  });
  // A second recheck asks the running re-run: still nothing to ask the provider about.
  expect((await stack.api<PayoutResponse>('POST', `/v1/payouts/${externalId}/recheck`)).body.status).toBe(
    'NEEDS_REVIEW',
  );
  expect(await providerOperations(stack, externalId, 'internal')).toBe(1);
}, 90_000);

test('a payout terminated before its submission was claimed: the intent says NONE; recheck answers 409, and nothing is ever sent', async () => {
  await stack.stopWorker();
  const externalId = `term-unsent-${randomUUID().slice(0, 8)}`;
  try {
    expect((await stack.api('POST', '/v1/payouts', RAIL_REQUESTS.pix_key(externalId))).status).toBe(202);
    await terminateWorkflow(stack, payoutWorkflowId(externalId), 'test: terminated before any worker ran it');
  } finally {
    await stack.startWorker();
  }
  const view = await stack.api<PayoutResponse>('GET', `/v1/payouts/${externalId}`);
  expect(view.body).toMatchObject({ status: 'RECEIVED', workflowStatus: 'TERMINATED', submission: { intent: 'NONE' } });
  const recheck = await stack.api<{ code: string }>('POST', `/v1/payouts/${externalId}/recheck`);
  expect(recheck.status).toBe(409);
  expect(recheck.body.code).toBe('PAYOUT_NEVER_SENT');
  // The operator's command says so and exits 0: nothing to settle.
  const reconciled = await reconcile(externalId);
  expect(reconciled).toMatchObject({ code: 0, stderr: '' });
  expect(reconciled.stdout).toMatch(
    new RegExp(
      `^Payout ${externalId}: never sent\\. The payout's workflow was TERMINATED before its submission was claimed`,
    ),
  );
  expect(await providerOperations(stack, externalId, 'pix_key')).toBe(0);
}, 90_000);
