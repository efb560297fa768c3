/**
 * Replays recorded payout and batch histories against the current workflow code. A change that would make a
 * running payout take a different path on replay (non-determinism) fails here, before it reaches a
 * worker in production. Histories are recorded by the end-to-end tests with RECORD_HISTORIES=1. Payout histories
 * are named by the workflow version their input carries (src/payouts/payout-input.ts): without a version, payouts
 * started before version 2, which still replay the remote-activity path; `payout-v2-*`, local activities (with and
 * without the provider-id patch); `payout-v3-*` and `payout-v4-*`; `payout-v5-*`, the current version. Re-recording writes only the current
 * version's files (test/helpers/record-history.ts: currentPayoutHistory); the older ones stay, and keep replaying.
 * Batch histories: `batch-*`, recorded before the `payout-batch-top-up` patch (workflows/batches/batch.ts), still replay
 * the three remote activities a step; `batch-top-up-*`, the one local activity a step batches take now.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { createDataConverter } from '../../src/temporal/connection';
import { operationSinks } from '../../src/worker/operation-sinks';
import { engineBundle } from '../helpers/engine-harness';
import { HISTORIES_DIR } from '../helpers/record-history';
import { testConfig } from '../helpers/temporal';

const files = readdirSync(HISTORIES_DIR)
  .filter((file) => file.endsWith('.binpb'))
  .sort();

test('recorded histories exist for the payout lifecycles of every rail, batches, charges, infractions and merchant events', () => {
  expect(files).toEqual(
    expect.arrayContaining([
      'payout-completed-by-callback.binpb',
      'payout-failed.binpb',
      'payout-completed-by-polling.binpb',
      'payout-of-batch-completed.binpb',
      'payout-copy-paste-completed.binpb',
      'payout-internal-completed.binpb',
      'payout-internal-ambiguous-cancelled.binpb',
      'payout-crypto-completed.binpb',
      // Version 2 (local activities, settlePayout), recorded before the provider-id patch, and one with it.
      'payout-v2-completed-by-callback.binpb',
      'payout-v2-failed.binpb',
      'payout-v2-completed-by-polling.binpb',
      'payout-v2-of-batch-completed.binpb',
      'payout-v2-copy-paste-completed.binpb',
      'payout-v2-internal-completed.binpb',
      'payout-v2-internal-ambiguous-cancelled.binpb',
      'payout-v2-crypto-completed.binpb',
      // A cancel while the submission waited out a retry backoff; an activity problem reported, then cleared.
      'payout-v2-cancelled-in-retry-backoff.binpb',
      'payout-v2-activity-problem-completed.binpb',
      'payout-v2-provider-id-patched-completed-by-callback.binpb',
      // Version 3 (the provider's id indexed with SUBMITTED, no patch).
      'payout-v3-completed-by-callback.binpb',
      'payout-v3-failed.binpb',
      'payout-v3-completed-by-polling.binpb',
      'payout-v3-of-batch-completed.binpb',
      'payout-v3-copy-paste-completed.binpb',
      'payout-v3-internal-completed.binpb',
      'payout-v3-internal-ambiguous-cancelled.binpb',
      'payout-v3-crypto-completed.binpb',
      'payout-v3-cancelled-in-retry-backoff.binpb',
      'payout-v3-activity-problem-completed.binpb',
      'payout-v3-internal-reset-reconciled.binpb',
      'payout-v3-rerun-after-terminate.binpb',
      // A send whose answer was lost, looked up until the deadline, never sent again; endpoint 5 answered without naming the
      // payment; an internal transfer refused with a message alone (FAILED with it).
      'payout-v3-outcome-unknown-review.binpb',
      'payout-v3-copy-paste-answer-unread-review.binpb',
      'payout-v3-internal-refused.binpb',
      // Version 4 (the callback as an update) and 5 (SUBMITTED indexed only once a look finds the payout pending).
      'payout-v4-completed-by-callback-update.binpb',
      'payout-v5-completed-by-callback-update.binpb',
      'payout-v5-completed-by-callback.binpb',
      'payout-v5-completed-by-polling.binpb',
      'payout-v5-failed.binpb',
      'payout-v5-copy-paste-completed.binpb',
      'payout-v5-internal-completed.binpb',
      'payout-v5-internal-ambiguous-cancelled.binpb',
      'payout-v5-crypto-completed.binpb',
      'payout-v5-outcome-unknown-review.binpb',
      'payout-v5-review-left-listed.binpb',
      'infraction-defended-accepted.binpb',
      // An infraction whose record could not be read (NEEDS_REVIEW), then could; the MED sync reading pages by their size (med-sync-follows-pages).
      'infraction-reviewed-opened-cancelled.binpb',
      'med-sync-follows-pages.binpb',
      'charge-paid.binpb',
      'charge-expired-paid-late.binpb',
      // Batches recorded before the top-up (three remote activities a step), and with it (the payout-batch-top-up patch).
      'batch-completed-last-run.binpb',
      'batch-paused-resumed-last-run.binpb',
      'batch-top-up-completed-last-run.binpb',
      'batch-top-up-paused-resumed-last-run.binpb',
      'card-payment-paid.binpb',
      // The binding of a provider payment to its order (the card-payment-binding patch), after three refusals.
      'card-payment-bound-after-refusals.binpb',
      // The payment id from the provider's own word only (the card-payment-answer-binding patch): paid through the
      // checkout, after an unsigned callback naming a wrong payment, from the checkout's record at the deadline, and
      // after an operator named a payment of another amount.
      'card-payment-answer-binding-paid.binpb',
      'card-payment-answer-binding-unsigned-hint-paid.binpb',
      'card-payment-answer-binding-record-read.binpb',
      'card-payment-answer-binding-after-refusal.binpb',
      'charge-paid-announced.binpb',
      // A charge re-created after a lost creation answer, paid by both references (the charge-watches-every-reference patch).
      'charge-recreated-paid-twice.binpb',
      'merchant-event-delivered-third-attempt.binpb',
      'merchant-event-redelivered.binpb',
      // Deliveries on their own task queue (the webhook-task-queue patch).
      'merchant-event-own-queue-delivered-third-attempt.binpb',
      'merchant-event-own-queue-redelivered.binpb',
      // Rows of the read model written at start and at each move (the operation-read-model patch).
      'charge-listed-paid.binpb',
      'card-payment-listed-expired.binpb',
      'infraction-listed-cancelled.binpb',
    ]),
  );
});

// zod stays out of the workflow context: its schema classes cost each payout CPU when the modules were evaluated per
// workflow, and a bundle that is preloaded (WORKFLOW_PRELOAD_MODULES) must not come to depend on that.
test('the workflow bundle holds no zod', async () => {
  expect((await engineBundle()).code).not.toMatch(/node_modules\/zod\//);
});

test('every recorded history replays on the current workflow code', async () => {
  const histories = files.map((file) => ({
    workflowId: file.replace(/\.binpb$/, ''),
    history: temporal.api.history.v1.History.decode(readFileSync(path.join(HISTORIES_DIR, file))),
  }));
  const failures: string[] = [];
  for await (const result of Worker.runReplayHistories(
    { workflowBundle: await engineBundle(), dataConverter: createDataConverter(testConfig()), sinks: operationSinks() },
    histories,
  )) {
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  expect(failures).toEqual([]);
});
