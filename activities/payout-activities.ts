/**
 * The payout's only contact with the provider, for every rail. Each rail (src/payouts/rails/<rail>)
 * submits exactly once and says where a payout stands; here the payment API's errors become what the
 * workflow acts on: a clear refusal (FAILED, with the provider's words), a conflict (NEEDS_REVIEW), or a
 * failure Temporal retries. Before anything is sent the submission claims its intent (src/intents), and
 * records what became of the send: an attempt that finds the intent claimed (by an earlier run, a reset or
 * a re-run; or by an earlier attempt of its own run whose answer was lost) never sends, it only looks the
 * payout up. Only an attempt after one the provider surely did nothing with (REFUSED) sends again.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { claimingRun } from './claiming-run';
import type { IntentKey, IntentStore, IntentUpdate } from '../src/intents/intent-store';
import { ConflictError, isClearRefusal, providerDidNothing, RouteNotConfiguredError } from '../src/payment-api/errors';
import {
  LOST_ANSWER_NOT_FOUND,
  lookUpUnansweredSubmission,
  reconcileEarlierSubmission,
} from '../src/payouts/earlier-submission';
import { methodOf, type PayoutInput } from '../src/payouts/payout-input';
import type { PayoutOutcomeRecorder } from '../src/payouts/payout-outcome-recorder';
import type { PayoutMethod } from '../src/payouts/rails/methods';
import { RAIL_PROVIDERS, railProviderOf } from '../src/payouts/rails/providers';
import type { CheckOutcome, PayoutPaymentApi, PayoutRef, SubmitOutcome } from '../src/payouts/rails/rail-provider';
import { payoutOfView, submittedPayout } from '../src/read-model/payout-records';
import type { ReadModel } from '../src/read-model/read-model';
import type { Announce, Announcement } from '../src/merchant-events/announce';
import {
  settlementOf,
  SUBMISSION_OUTCOME_UNKNOWN,
  type PayoutSettlement,
  type PayoutView,
} from '../src/lifecycles/payout-client';

export type { CheckOutcome, SubmitOutcome };

export interface PayoutActivityDependencies {
  api: PayoutPaymentApi;
  /** The engine's public base URL; each rail's callbacks come to its path under it. */
  callbackBaseUrl: string;
  outcomes: PayoutOutcomeRecorder;
  /** Tells the merchant's endpoints of a final payout. */
  announce: Announce;
  /** Where each submission claims its intent before it is sent. */
  intents: IntentStore;
  /** Where the API lists payouts from: written as the payout moves. */
  readModel: Pick<ReadModel, 'recordPayout'>;
}

/** What the intent records of a submission's outcome. */
function intentUpdateOf(outcome: SubmitOutcome): IntentUpdate {
  if (outcome.kind === 'accepted') return { state: 'SENT', providerId: outcome.transactionId };
  return { state: outcome.kind === 'rejected' ? 'REFUSED' : 'UNKNOWN' };
}

export function createPayoutActivities({
  api,
  callbackBaseUrl,
  outcomes,
  announce,
  intents,
  readModel,
}: PayoutActivityDependencies) {
  /** `attemptsBefore`: attempts already made elsewhere (the workflow's local first one), so that this one reconciles first. */
  async function submitWithdrawal(input: PayoutInput, attemptsBefore = 0): Promise<SubmitOutcome> {
    const payout = { ...input, method: methodOf(input) } as PayoutInput;
    const { info, log } = Context.current();
    const key: IntentKey = { businessId: payout.externalId, kind: 'payout-submission' };
    const runId = claimingRun();
    const claim = await intents.claim(key, runId);
    if (claim.by === 'earlier-run') {
      const outcome = await reconcileEarlierSubmission(payout, claim.intent, api);
      log.warn('payout.intent_claimed_earlier', {
        externalId: payout.externalId,
        intentState: claim.intent.state,
        claimedByRun: claim.intent.runId,
        outcome: outcome.kind,
      });
      return outcome;
    }
    // Claimed by this run before (not taken over from a send the provider did nothing with): that send may have reached the provider.
    const outcome = claim.fresh
      ? await submitClaimed(payout, key, runId, attemptsBefore + info.attempt)
      : await lookUpUnansweredSubmission(payout, claim.intent, api);
    if (outcome.kind === 'still-unknown')
      throw ApplicationFailure.retryable(outcome.reason, SUBMISSION_OUTCOME_UNKNOWN);
    await intents.record(key, runId, intentUpdateOf(outcome));
    // The workflow's next move is SUBMITTED: listed so from now on, not only once the payout ends.
    if (outcome.kind === 'accepted') await readModel.recordPayout(submittedPayout(payout, outcome));
    return outcome;
  }

  /**
   * The claimed submission, as each rail makes it. A failure is recorded before it is retried: REFUSED when the
   * provider surely did nothing (the next attempt may send again), UNKNOWN otherwise (the next one only looks).
   */
  async function submitClaimed(
    payout: PayoutInput,
    key: IntentKey,
    runId: string,
    attempt: number,
  ): Promise<SubmitOutcome> {
    const rail = railProviderOf(payout);
    try {
      return await rail.submit(payout, { api, attempt, callbackUrl: `${callbackBaseUrl}${rail.callback?.path ?? ''}` });
    } catch (error) {
      // The provider's words, or the engine's own when it has no route for the rail: nothing was made, and sending again changes nothing.
      if (isClearRefusal(error) || error instanceof RouteNotConfiguredError)
        return { kind: 'rejected', reason: error.message };
      await intents.record(key, runId, { state: providerDidNothing(error) ? 'REFUSED' : 'UNKNOWN' });
      if (error instanceof ConflictError) throw ApplicationFailure.nonRetryable(error.message, 'Conflict');
      // Everything else (5xx, timeouts, lost connections, a gateway's odd status) is retried.
      throw error;
    }
  }

  /**
   * Where a payout stands at the provider. After a send whose answer was lost (its intent UNKNOWN), "not found"
   * is no proof of absence: the provider may still make it, so the payout reads as one the provider cannot be
   * asked about, and a cancel is the operator's decision in review, never a conclusion from the provider's silence.
   * `ref` as a string: an external id, as payouts started before the rails existed ask.
   */
  async function checkWithdrawal(ref: (PayoutRef & { method?: PayoutMethod }) | string): Promise<CheckOutcome> {
    const { method = 'pix_key', ...payout } = typeof ref === 'string' ? { externalId: ref } : ref;
    const outcome = await RAIL_PROVIDERS[method].check(payout, api);
    if (outcome.kind !== 'not-found') return outcome;
    const intent = await intents.find({ businessId: payout.externalId, kind: 'payout-submission' });
    return intent?.state === 'UNKNOWN' ? { kind: 'unknowable', reason: LOST_ANSWER_NOT_FOUND } : outcome;
  }

  /** A payout of a batch records where it stands (run as a local activity by the payout workflow). */
  function recordBatchOutcome(batchId: string, settlement: PayoutSettlement): Promise<void> {
    return outcomes.record(batchId, settlement);
  }

  /**
   * A payout's final state, once, for every payout (local activity): a batch's payout records its outcome,
   * then the merchant's endpoints are told of the events its workflow queued (its outbox rides in this
   * activity); both idempotent: a retry records and announces the same.
   */
  async function settlePayout(view: PayoutView, announcements: readonly Announcement[]): Promise<void> {
    if (view.batchId) await outcomes.record(view.batchId, settlementOf(view));
    await readModel.recordPayout(payoutOfView(view));
    // In the order they happened, each through the same hand-over as announceEvent's.
    for (const announcement of announcements) await announce(announcement);
  }

  /** A payout gone to review (local activity, behind the `payout-read-model` patch): its batch's outcome as recordBatchOutcome, and its row. */
  async function recordPayoutReview(view: PayoutView): Promise<void> {
    if (view.batchId) await outcomes.record(view.batchId, settlementOf(view));
    await readModel.recordPayout(payoutOfView(view));
  }

  /** A payout's row as its workflow sees it (local activity): written when a review sends it back to SUBMITTED. */
  async function recordPayoutRow(view: PayoutView): Promise<void> {
    await readModel.recordPayout(payoutOfView(view));
  }

  return { submitWithdrawal, checkWithdrawal, recordBatchOutcome, settlePayout, recordPayoutReview, recordPayoutRow };
}

export type PayoutActivities = ReturnType<typeof createPayoutActivities>;
