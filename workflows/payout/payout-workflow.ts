/**
 * One PIX payout, id `payout:<externalId>`, from the merchant's request to a confirmed outcome.
 *
 * RECEIVED --submit--> SUBMITTED --(callback hint | timer) + transaction check--> COMPLETED | FAILED
 * Submission never posts twice: the submit activity reconciles by `external_id` on every retry.
 * Callbacks are hints; the transaction check is the truth. Without an answer past the review deadline,
 * the payout waits in NEEDS_REVIEW for an operator's recheck or cancel. The main loop is the only writer
 * of state; signal and update handlers set flags and wait for it.
 */
import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
  allHandlersFinished,
} from '@temporalio/workflow';
import type { BatchActivities } from '../../activities/batch-activities';
import type { PayoutActivities } from '../../activities/payout-activities';
import { AmountCents, BatchId, PayoutFlow } from '../../src/temporal/search-attributes';
import { Lifecycle } from '../shared/lifecycle';
import {
  cancelPayoutUpdate,
  payoutStatusQuery,
  recheckPayoutUpdate,
  withdrawalCallbackSignal,
  type CancelOutcome,
  type PayoutInput,
  type PayoutView,
  type WithdrawalCallbackHint,
} from './messages';
import { PAYOUT_FLOW } from './search-attributes';
import { PAYOUT_TRANSITIONS, type PayoutState } from './states';

// A check that keeps failing returns "unknown" quickly: the callers have their own loops and deadlines.
const { checkWithdrawal } = proxyActivities<PayoutActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

// A local write on the worker's machine: no extra workflow task per payout, retried until it lands.
const { recordBatchOutcome } = proxyLocalActivities<BatchActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

const NON_RETRYABLE_SUBMIT = ['Conflict'];

function submitActivities(deadlineMs: number) {
  return proxyActivities<PayoutActivities>({
    startToCloseTimeout: '30 seconds',
    // A cancel must not race a POST in flight: wait until the running attempt has ended, so that the
    // reconciliation that follows sees what that attempt did.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    scheduleToCloseTimeout: deadlineMs,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: NON_RETRYABLE_SUBMIT },
  });
}

function nowMs(): number {
  return new Date().getTime();
}

function failureMessage(error: unknown): string {
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure) return error.cause.message;
  if (error instanceof ActivityFailure && error.cause) return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}

function failureType(error: unknown): string | undefined {
  return error instanceof ActivityFailure && error.cause instanceof ApplicationFailure ? (error.cause.type ?? undefined) : undefined;
}

export async function payoutWorkflow(input: PayoutInput): Promise<PayoutView> {
  // Started by the engine, the payout was indexed by its start request; started otherwise (or before the
  // engine did so), it indexes itself. Read from the start event, so replay takes the same path.
  const indexedAtStart = workflowInfo().typedSearchAttributes.get(PayoutFlow) === PAYOUT_FLOW;
  const lifecycle = new Lifecycle<PayoutState>(PAYOUT_TRANSITIONS, 'RECEIVED', 'payout request accepted', { initialIndexed: indexedAtStart });
  if (!indexedAtStart) {
    upsertSearchAttributes({
      [PayoutFlow.name]: [PAYOUT_FLOW],
      [AmountCents.name]: [input.amountCents],
      ...(input.batchId ? { [BatchId.name]: [input.batchId] } : {}),
    });
  }

  const details: Omit<PayoutView, 'state' | 'transitions' | 'callbacksReceived' | 'checksMade'> = {
    externalId: input.externalId,
    amountCents: input.amountCents,
    requestHash: input.requestHash,
    ...(input.batchId ? { batchId: input.batchId } : {}),
  };
  let callbacksReceived = 0;
  let checksMade = 0;
  let hint: WithdrawalCallbackHint | undefined;
  let hintPending = false;
  let recheckRequested = false;
  let cancelRequest: { reason: string } | undefined;
  let cancelOutcome: CancelOutcome | undefined;

  const view = (): PayoutView => ({
    ...details,
    state: lifecycle.state,
    transitions: lifecycle.history,
    callbacksReceived,
    checksMade,
  });

  setHandler(payoutStatusQuery, view);
  setHandler(withdrawalCallbackSignal, (received) => {
    callbacksReceived += 1;
    if (lifecycle.isTerminal()) return;
    hint = received;
    hintPending = true;
  });
  setHandler(recheckPayoutUpdate, async () => {
    if (lifecycle.isTerminal()) return view();
    recheckRequested = true;
    await condition(() => !recheckRequested);
    return view();
  });
  setHandler(cancelPayoutUpdate, async (request) => {
    if (lifecycle.isTerminal()) return { cancelled: false, reason: `the payout is already ${lifecycle.state}`, view: view() };
    if (lifecycle.state === 'SUBMITTED') {
      return { cancelled: false, reason: 'the payout was already submitted to the provider', view: view() };
    }
    cancelRequest = request;
    await condition(() => cancelOutcome !== undefined);
    const outcome = cancelOutcome!;
    cancelOutcome = undefined;
    return outcome;
  });

  /**
   * Asks the provider and applies a final answer. `found` is 'unknown' when the check itself could not
   * be made: absence is only ever concluded from the provider saying so.
   */
  const confirmWithProvider = async (): Promise<{ final: boolean; found: boolean | 'unknown' }> => {
    let outcome: Awaited<ReturnType<typeof checkWithdrawal>>;
    try {
      outcome = await checkWithdrawal(input.externalId);
    } catch (error) {
      details.reviewReason = `transaction check failed: ${failureMessage(error)}`;
      return { final: false, found: 'unknown' };
    } finally {
      checksMade += 1;
    }
    if (outcome.kind === 'not-found') return { final: false, found: false };
    details.providerTransactionId = outcome.transactionId;
    details.providerState = outcome.providerState;
    if (outcome.feeCents !== undefined) {
      details.feeCents = outcome.feeCents;
      details.totalCents = input.amountCents + outcome.feeCents;
    }
    if (outcome.state === 'COMPLETED') {
      lifecycle.moveTo('COMPLETED', `transaction check: ${outcome.providerState}`);
      return { final: true, found: true };
    }
    if (outcome.state === 'FAILED') {
      details.failureReason = hint?.reason ?? `provider reported ${outcome.providerState}`;
      lifecycle.moveTo('FAILED', `transaction check: ${outcome.providerState}`);
      return { final: true, found: true };
    }
    return { final: false, found: true };
  };

  /** A payout of a batch records where it stands in the batch store, which the batch and the API read. */
  const reportToBatch = async (): Promise<void> => {
    if (!input.batchId) return;
    await recordBatchOutcome(input.batchId, {
      externalId: input.externalId,
      state: lifecycle.state,
      ...(details.feeCents === undefined ? {} : { feeCents: details.feeCents }),
      ...(details.failureReason ? { failureReason: details.failureReason } : {}),
    });
  };
  let reportedReview = false;

  const settleCancel = (outcome: CancelOutcome): void => {
    cancelOutcome = outcome;
    cancelRequest = undefined;
  };

  // ---- Submission ----
  const { submitWithdrawal } = submitActivities(input.timing.submitDeadlineMs);
  const submitScope = new CancellationScope();
  const submitted = submitScope.run(() => submitWithdrawal(input));
  // Cancel can only interrupt a submission that is still retrying; the reconciliation below decides.
  void condition(() => cancelRequest !== undefined).then(() => {
    if (lifecycle.state === 'RECEIVED') submitScope.cancel();
  });
  try {
    const result = await submitted;
    if (result.kind === 'rejected') {
      details.failureReason = result.reason;
      lifecycle.moveTo('FAILED', 'provider refused the withdrawal request');
    } else {
      details.providerTransactionId = result.transactionId;
      details.providerState = result.providerStatus;
      details.feeCents = result.feeCents;
      details.totalCents = result.totalCents;
      lifecycle.moveTo('SUBMITTED', result.reconciled ? 'found at the provider by reconciliation' : `provider answered ${result.providerStatus}`);
      if (result.providerStatus !== 'PROCESSING') {
        hint = { status: result.providerStatus, receivedAt: new Date().toISOString() };
        hintPending = true;
      }
    }
  } catch (error) {
    if (isCancellation(error) && cancelRequest) {
      // The cancelled attempt may have reached the provider: only an absent record makes the cancel true.
      const { found, final } = await confirmWithProvider();
      if (found === false) {
        lifecycle.moveTo('CANCELLED', `cancelled by operator: ${cancelRequest.reason}`);
        settleCancel({ cancelled: true, view: view() });
      } else if (found === 'unknown') {
        lifecycle.moveTo('NEEDS_REVIEW', 'cancel requested but the provider could not be asked');
        settleCancel({ cancelled: false, reason: 'the provider could not confirm that it has no record of this withdrawal', view: view() });
      } else {
        if (!final) lifecycle.moveTo('SUBMITTED', 'found at the provider while cancelling');
        settleCancel({ cancelled: false, reason: 'the provider already has this withdrawal', view: view() });
      }
    } else {
      details.reviewReason = `submission did not succeed: ${failureMessage(error)}`;
      lifecycle.moveTo('NEEDS_REVIEW', failureType(error) === 'Conflict' ? 'provider holds a different withdrawal with this external_id' : 'submission deadline passed');
    }
  }
  // A cancel that raced a successful submission (or a refusal) is answered here.
  if (cancelRequest) settleCancel({ cancelled: false, reason: `the payout is already ${lifecycle.state}`, view: view() });

  // ---- Waiting for the outcome, then review ----
  while (!lifecycle.isTerminal()) {
    if (lifecycle.state === 'SUBMITTED') {
      const reviewAt = nowMs() + input.timing.reviewAfterMs;
      let wait = input.timing.callbackWaitMs;
      let pollDelay = input.timing.pollInitialMs;
      while (lifecycle.state === 'SUBMITTED') {
        const remaining = reviewAt - nowMs();
        if (remaining <= 0) {
          details.reviewReason = 'no confirmed outcome before the review deadline';
          lifecycle.moveTo('NEEDS_REVIEW', 'review deadline passed');
          break;
        }
        if (!hintPending && !recheckRequested) await condition(() => hintPending || recheckRequested, Math.min(wait, remaining));
        const afterHint = hintPending;
        hintPending = false;
        const { final } = await confirmWithProvider();
        recheckRequested = false;
        if (final) break;
        // After a hint the provider is about to agree: look again soon. After silence, back off.
        if (afterHint) {
          pollDelay = input.timing.pollInitialMs;
          wait = pollDelay;
        } else {
          wait = pollDelay;
          pollDelay = Math.min(pollDelay * 2, input.timing.pollMaxMs);
        }
      }
      continue;
    }
    // NEEDS_REVIEW: wait for an operator or a late callback.
    if (!reportedReview) {
      reportedReview = true;
      await reportToBatch();
    }
    await condition(() => hintPending || recheckRequested || cancelRequest !== undefined);
    hintPending = false;
    const { found, final } = await confirmWithProvider();
    recheckRequested = false;
    if (cancelRequest) {
      if (found === false && lifecycle.can('CANCELLED')) {
        lifecycle.moveTo('CANCELLED', `cancelled by operator: ${cancelRequest.reason}`);
        settleCancel({ cancelled: true, view: view() });
      } else {
        const reason = final
          ? `the payout is already ${lifecycle.state}`
          : found === 'unknown'
            ? 'the provider could not confirm that it has no record of this withdrawal'
            : 'the provider already has this withdrawal';
        settleCancel({ cancelled: false, reason, view: view() });
      }
    }
    // A submission that failed on our side but reached the provider goes back to waiting for its outcome.
    const everSubmitted = lifecycle.history.some((transition) => transition.to === 'SUBMITTED');
    if (!final && found === true && lifecycle.state === 'NEEDS_REVIEW' && !everSubmitted) {
      lifecycle.moveTo('SUBMITTED', 'found at the provider on recheck');
      reportedReview = false;
    }
  }
  await reportToBatch();
  await condition(allHandlersFinished);
  return view();
}
