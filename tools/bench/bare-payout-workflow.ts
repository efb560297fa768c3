/**
 * The benchmark's yardstick: a **bare payout**, the floor of a durable, signal-driven payout on this Temporal
 * server and worker, so that what the engine spends beyond it is the engine's own code. What it mirrors of
 * a payout of a batch completed by its callback (docs/benchmarks.md lists the payout's events), and why:
 *
 * - the start request: the engine's own (`payoutStartOptions`: id, search attributes, memo, user metadata and
 *   the same encrypted `PayoutInput`), because the start and its visibility record cost the server by size;
 * - its first workflow task: the submission as a local activity (a marker with an answer of a submission's
 *   shape), the `SUBMITTED` upsert of `PayoutStatus` with `ProviderTransactionId` (one upsert, as a payout of
 *   version 3 writes them), and the callback wait's timer;
 * - the callback: a signal of the payout's own name and hint, sent from another process
 *   (tools/bench/bare-signaller.ts, as the engine API signals the provider's callback) once the submission
 *   has run, so that it wakes a workflow task of its own, as a callback does;
 * - that second task: the timer cancelled, the check as a local activity, the `COMPLETED` upsert, and the
 *   settlement as a local activity given a view of the payout's shape.
 *
 * What it leaves out is what a payout does beyond the floor: the state machine and its handlers (status
 * query, recheck and cancel updates), the provider's calls and the batch store. Its activities are no-ops
 * but for telling the stand-in provider (bare-payout-activities.ts). Deterministic, like every workflow.
 */
import { condition, proxyLocalActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { PayoutInput } from '../../src/payouts/payout-input';
import { PayoutStatus, ProviderTransactionId } from '../../src/temporal/search-attributes';
import { withdrawalCallbackSignal, type WithdrawalCallbackHint } from '../../src/contracts/payout';
import type { BareActivities } from './bare-payout-activities';

// The payout's own local-activity options (workflows/payouts/provider-calls.ts): the same markers.
const { submitWithdrawal, checkWithdrawal, settlePayout } = proxyLocalActivities<BareActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

export async function barePayoutWorkflow(input: PayoutInput): Promise<void> {
  let hint: WithdrawalCallbackHint | undefined;
  setHandler(withdrawalCallbackSignal, (received) => {
    hint = received;
  });
  const submitted = await submitWithdrawal(input);
  upsertSearchAttributes({
    [PayoutStatus.name]: ['SUBMITTED'],
    [ProviderTransactionId.name]: [submitted.transactionId],
  });
  await condition(() => hint !== undefined, input.timing.callbackWaitMs);
  const checked = await checkWithdrawal({
    method: 'pix_key',
    externalId: input.externalId,
    providerTransactionId: submitted.transactionId,
  });
  upsertSearchAttributes({ [PayoutStatus.name]: [checked.state] });
  await settlePayout({
    externalId: input.externalId,
    state: checked.state,
    amountCents: input.amountCents,
    feeCents: checked.feeCents,
    providerTransactionId: submitted.transactionId,
    callbacksReceived: 1,
    checksMade: 1,
  });
}
