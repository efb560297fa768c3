/**
 * The payout's state machine: its state, one method per phase, and the answers to the outside world.
 *
 *   submit          RECEIVED → SUBMITTED | FAILED | CANCELLED | NEEDS_REVIEW
 *   awaitOutcome    SUBMITTED → COMPLETED | FAILED (callback hint or timer, then the transaction check)
 *                   SUBMITTED → NEEDS_REVIEW (no confirmed outcome by the review deadline)
 *   awaitOperator   NEEDS_REVIEW → COMPLETED | FAILED | SUBMITTED | CANCELLED (recheck, cancel, late callback)
 *
 * The phases are the only writers of state; handlers record what was asked and wait in PendingUpdates,
 * which the phases answer, every one of them, before the payout ends.
 */
import { CancellationScope, condition, isCancellation, patched, upsertSearchAttributes } from '@temporalio/workflow';
import { methodOf, runsVersion, type PayoutInput } from '../../src/payouts/payout-input';
import { AmountCents, BatchId, PayoutStatus, ProviderTransactionId } from '../../src/temporal/search-attributes';
import { Lifecycle } from '../shared/lifecycle';
import { indexedLifecycle } from '../shared/start-index';
import { CallbackInbox } from '../shared/callback-inbox';
import { awaitConfirmedOutcome } from '../shared/confirmed-outcome';
import { MerchantEventOutbox } from '../shared/merchant-events';
import { LookRequests, PendingUpdates } from '../shared/pending-updates';
import { PAYOUT_EVENT_TYPES, payoutEventData } from './merchant-events';
import {
  PAYOUT_TRANSITIONS,
  payoutFlow,
  settlementOf,
  type CancelOutcome,
  type PayoutState,
  type PayoutView,
  type WithdrawalCallbackHint,
} from '../../src/contracts/payout';
import { failureMessage } from '../shared/activity-failures';
import {
  providerCalls,
  recordBatchOutcome,
  recordPayoutReview,
  recordPayoutRow,
  settlePayout,
  type ProviderCalls,
} from './provider-calls';
import { submissionReview } from './submission-review';

/** Marks histories whose payouts write their row of the read model when they go to review (with their batch's outcome). */
const READ_MODEL_PATCH = 'payout-read-model';

/** Marks histories whose payouts write their row when a review sends them back to SUBMITTED (before it, the row said NEEDS_REVIEW until the end). */
const REVIEW_LEFT_ROW_PATCH = 'payout-review-left-row';

/** Marks version 2 histories whose payouts index the provider's id once submitted (version 3 always does). */
const PROVIDER_ID_INDEX_PATCH = 'payout-provider-id-index';
/** Marks histories whose payouts tell the merchant when they go to review (payout.needs_review). */
const REVIEW_EVENT_PATCH = 'payout-review-event';

/** What the provider said when asked; `found` is 'unknown' when the check failed, 'unknowable' when it cannot be asked. */
interface ProviderAnswer {
  final: boolean;
  found: boolean | 'unknown' | 'unknowable';
}

type PayoutDetails = Omit<PayoutView, 'state' | 'transitions' | 'callbacksReceived' | 'checksMade'>;

export class Payout {
  private readonly lifecycle: Lifecycle<PayoutState>;
  /** Carried by the settlement at the end: a payout's event costs no local activity of its own. */
  private readonly events = new MerchantEventOutbox('carried');
  private readonly details: PayoutDetails;
  private readonly callbacks = new CallbackInbox<WithdrawalCallbackHint>();
  /** Set by an accepted cancel until the phase that can act on it answers. */
  private cancelReason: string | undefined;
  private readonly rechecks = new LookRequests<PayoutView>();
  private readonly cancels = new PendingUpdates<CancelOutcome>();
  private readonly calls: ProviderCalls;

  constructor(private readonly input: PayoutInput) {
    this.calls = providerCalls(input);
    const flow = payoutFlow(input);
    this.lifecycle = indexedLifecycle(
      {
        table: PAYOUT_TRANSITIONS,
        initial: 'RECEIVED',
        cause: 'payout request accepted',
        stateAttribute: PayoutStatus,
      },
      flow,
      { [AmountCents.name]: [input.amountCents], ...(input.batchId ? { [BatchId.name]: [input.batchId] } : {}) },
    );
    this.details = {
      externalId: input.externalId,
      method: methodOf(input),
      amountCents: input.amountCents,
      requestHash: input.requestHash,
      ...(input.batchId ? { batchId: input.batchId } : {}),
    };
    // Payouts of before version 2 have no settlement to carry their events, and announced none.
    if (this.calls.settlesEveryPayout)
      this.events.watch(this.lifecycle, PAYOUT_EVENT_TYPES, (state) => payoutEventData(this.view(), state));
  }

  view(): PayoutView {
    return { ...this.details, ...this.lifecycle.view(), ...this.callbacks.counts() };
  }

  // ---- What the outside world says ----

  onCallback(hint: WithdrawalCallbackHint): void {
    this.callbacks.heard();
    if (this.lifecycle.isTerminal()) return;
    this.callbacks.put(hint);
  }

  /**
   * Update validator: a final payout has nothing left to ask, and one still being submitted asks the
   * provider on every attempt already (its view, with the failing attempt's problem, is the answer).
   * Refusing here, not waiting in the handler, answers at once and writes nothing to the history.
   */
  validateRecheck(): void {
    if (this.lifecycle.isTerminal()) throw new Error(`the payout is already ${this.lifecycle.state}`);
    if (this.lifecycle.state === 'RECEIVED') throw new Error('the payout is still being submitted to the provider');
  }

  /** Answered after the provider has next been asked (at once in review), or when the payout ends. */
  recheck(): Promise<PayoutView> {
    return this.rechecks.wait();
  }

  /** A recheck the API could not hand over as an update (or sent while submitting): the next look takes it. */
  askRecheck(): void {
    this.rechecks.ask();
  }

  /** Update validator: only a payout that may not be at the provider yet can be cancelled. */
  validateCancel(): void {
    if (this.lifecycle.isTerminal()) throw new Error(`the payout is already ${this.lifecycle.state}`);
    if (this.lifecycle.state === 'SUBMITTED') throw new Error('the payout was already submitted to the provider');
  }

  cancel(request: { reason: string }): Promise<CancelOutcome> {
    this.cancelReason ??= request.reason;
    return this.cancels.wait();
  }

  // ---- The phases ----

  async run(): Promise<PayoutView> {
    await this.submit();
    while (!this.lifecycle.isTerminal()) {
      if (this.lifecycle.state === 'SUBMITTED') await this.awaitOutcome();
      else await this.awaitOperator();
    }
    await this.settle();
    this.rechecks.answerAll(this.view());
    this.refuseCancels();
    return this.view();
  }

  private async submit(): Promise<void> {
    const scope = new CancellationScope();
    const submitted = scope.run(() => this.calls.submitWithdrawal(this.input));
    // Cancel can only interrupt a submission that is still retrying; the reconciliation below decides.
    void condition(() => this.cancelReason !== undefined).then(() => {
      if (this.lifecycle.state === 'RECEIVED') scope.cancel();
    });
    try {
      const result = await submitted;
      if (result.kind === 'rejected') {
        this.details.failureReason = result.reason;
        this.lifecycle.moveTo('FAILED', 'provider refused the withdrawal request');
      } else if (result.kind === 'unknown') {
        this.details.reviewReason = result.reason;
        this.lifecycle.moveTo('NEEDS_REVIEW', 'the provider may have the payout and cannot be asked for it');
      } else {
        Object.assign(this.details, {
          providerTransactionId: result.transactionId,
          providerState: result.providerStatus,
          feeCents: result.feeCents,
          totalCents: result.totalCents,
          ...(result.quote ? { quote: result.quote } : {}),
        });
        const cause = result.reconciled
          ? 'found at the provider by reconciliation'
          : `provider answered ${result.providerStatus}`;
        // Indexed so that an operator finds the payout by the provider's id (payouts of before the patch index
        // themselves not). From version 5 with the payout's next state, or once a look finds it still pending: a
        // callback finds the payout through the intent store, which holds the provider's id from its answer on, so
        // a payout confirmed at its first look writes no SUBMITTED to the index.
        const providerId = { [ProviderTransactionId.name]: [result.transactionId] };
        if (runsVersion(this.input, 5)) this.lifecycle.moveTo('SUBMITTED', cause, providerId, 'with-next-move');
        else if (runsVersion(this.input, 3)) this.lifecycle.moveTo('SUBMITTED', cause, providerId);
        else {
          this.lifecycle.moveTo('SUBMITTED', cause);
          if (patched(PROVIDER_ID_INDEX_PATCH)) upsertSearchAttributes(providerId);
        }
        // An answer already past PROCESSING is a hint too: look at once, without waiting for the callback.
        if (result.providerStatus !== 'PROCESSING')
          this.callbacks.put({ status: result.providerStatus, receivedAt: new Date().toISOString() });
      }
    } catch (error) {
      if (isCancellation(error) && this.cancelReason !== undefined)
        await this.cancelAfterInterruptedSubmission(this.cancelReason);
      else {
        const review = submissionReview(error);
        this.details.reviewReason = review.reason;
        this.lifecycle.moveTo('NEEDS_REVIEW', review.cause);
      }
    }
    // A cancel that raced a successful submission (or a refusal) is answered here.
    this.refuseCancels();
  }

  /** The cancelled attempt may have reached the provider: only an absent record makes the cancel true. */
  private async cancelAfterInterruptedSubmission(reason: string): Promise<void> {
    const { found, final } = await this.check();
    if (found === false) {
      this.lifecycle.moveTo('CANCELLED', `cancelled by operator: ${reason}`);
      this.answerCancels({ cancelled: true, view: this.view() });
    } else if (found === 'unknown' || found === 'unknowable') {
      this.lifecycle.moveTo('NEEDS_REVIEW', 'cancel requested but the provider could not be asked');
      this.answerCancels({
        cancelled: false,
        reason: 'the provider could not confirm that it has no record of this withdrawal',
        view: this.view(),
      });
    } else {
      if (!final) this.lifecycle.moveTo('SUBMITTED', 'found at the provider while cancelling');
      this.answerCancels({ cancelled: false, reason: 'the provider already has this withdrawal', view: this.view() });
    }
  }

  private async awaitOutcome(): Promise<void> {
    const waited = await awaitConfirmedOutcome(this.input.timing, {
      hasNews: () => this.callbacks.pending || this.rechecks.any,
      takeHint: () => this.callbacks.take(),
      check: async () => {
        const { final } = await this.check();
        // Still pending at the provider when first looked at (version 5): now worth finding as SUBMITTED in the index.
        if (!final) this.lifecycle.indexDeferred();
        return final;
      },
      waiting: () => this.lifecycle.state === 'SUBMITTED',
    });
    if (waited === 'review') {
      this.details.reviewReason = 'no confirmed outcome before the review deadline';
      this.lifecycle.moveTo('NEEDS_REVIEW', 'review deadline passed');
    }
  }

  private async awaitOperator(): Promise<void> {
    // Only the review path pays for the patch's marker: a payout that settles without review records its row in settlePayout.
    if (patched(READ_MODEL_PATCH)) await recordPayoutReview(this.view());
    else await this.reportToBatch();
    // Payouts of before version 2 announce nothing; those recorded before the patch did not announce review.
    if (this.calls.settlesEveryPayout && patched(REVIEW_EVENT_PATCH)) {
      await this.events.announceLatestMove(this.lifecycle, 'payout.needs_review', () =>
        payoutEventData(this.view(), 'NEEDS_REVIEW'),
      );
    }
    while (this.lifecycle.state === 'NEEDS_REVIEW') {
      await condition(() => this.callbacks.pending || this.rechecks.any || this.cancelReason !== undefined);
      this.callbacks.take();
      const { found, final } = await this.askProvider();
      if (this.cancelReason !== undefined) this.decideCancelInReview(this.cancelReason, found, final);
      // A submission that failed on our side but reached the provider goes back to waiting for its outcome.
      if (!final && found === true && this.lifecycle.state === 'NEEDS_REVIEW' && !this.lifecycle.hasBeen('SUBMITTED')) {
        this.lifecycle.moveTo('SUBMITTED', 'found at the provider on recheck');
      }
      this.rechecks.answerAll(this.view());
    }
    // Back to waiting for the provider: the list shows where it is now. A final state's row is written by the settlement.
    if (this.lifecycle.state === 'SUBMITTED' && patched(REVIEW_LEFT_ROW_PATCH)) await recordPayoutRow(this.view());
  }

  private decideCancelInReview(reason: string, found: ProviderAnswer['found'], final: boolean): void {
    if (found === false && this.lifecycle.can('CANCELLED')) {
      this.lifecycle.moveTo('CANCELLED', `cancelled by operator: ${reason}`);
      this.answerCancels({ cancelled: true, view: this.view() });
      return;
    }
    // The provider cannot be asked about it at all (an internal transfer it never named): the operator's word decides.
    if (found === 'unknowable' && this.lifecycle.can('CANCELLED')) {
      this.lifecycle.moveTo(
        'CANCELLED',
        `cancelled by operator: ${reason} (the provider cannot be asked about this payout)`,
      );
      this.answerCancels({ cancelled: true, view: this.view() });
      return;
    }
    const why = final
      ? `the payout is already ${this.lifecycle.state}`
      : found === 'unknown'
        ? 'the provider could not confirm that it has no record of this withdrawal'
        : 'the provider already has this withdrawal';
    this.answerCancels({ cancelled: false, reason: why, view: this.view() });
  }

  /** Asks the provider, applies a final answer, and answers the rechecks waiting for it. */
  private async check(): Promise<ProviderAnswer> {
    const answer = await this.askProvider();
    this.rechecks.answerAll(this.view());
    return answer;
  }

  /** Absence is only ever concluded from the provider saying so, never from a failed check. */
  private async askProvider(): Promise<ProviderAnswer> {
    let outcome: Awaited<ReturnType<ProviderCalls['checkWithdrawal']>>;
    try {
      outcome = await this.calls.checkWithdrawal({
        method: this.details.method,
        externalId: this.input.externalId,
        ...(this.details.providerTransactionId ? { providerTransactionId: this.details.providerTransactionId } : {}),
      });
    } catch (error) {
      this.details.reviewReason = `transaction check failed: ${failureMessage(error)}`;
      return { final: false, found: 'unknown' };
    } finally {
      this.callbacks.checked();
    }
    if (outcome.kind === 'not-found') return { final: false, found: false };
    if (outcome.kind === 'unknowable') {
      this.details.reviewReason = outcome.reason;
      return { final: false, found: 'unknowable' };
    }
    this.details.providerTransactionId = outcome.transactionId;
    this.details.providerState = outcome.providerState;
    const endToEndId = outcome.endToEndId ?? this.callbacks.latest?.endToEndId;
    if (endToEndId) this.details.endToEndId = endToEndId;
    if (outcome.feeCents !== undefined) {
      this.details.feeCents = outcome.feeCents;
      this.details.totalCents = this.input.amountCents + outcome.feeCents;
    }
    if (outcome.state === 'COMPLETED') {
      this.lifecycle.moveTo('COMPLETED', `transaction check: ${outcome.providerState}`);
      return { final: true, found: true };
    }
    if (outcome.state === 'FAILED') {
      this.details.failureReason =
        this.callbacks.latest?.reason ?? outcome.reason ?? `provider reported ${outcome.providerState}`;
      this.lifecycle.moveTo('FAILED', `transaction check: ${outcome.providerState}`);
      return { final: true, found: true };
    }
    return { final: false, found: true };
  }

  private answerCancels(outcome: CancelOutcome): void {
    this.cancelReason = undefined;
    this.cancels.answerAll(outcome);
  }

  /** Cancels still waiting when the payout can no longer be cancelled. */
  private refuseCancels(): void {
    if (this.cancels.any)
      this.answerCancels({
        cancelled: false,
        reason: `the payout is already ${this.lifecycle.state}`,
        view: this.view(),
      });
    this.cancelReason = undefined;
  }

  /** A payout of a batch records where it stands, which the batch and the API read. */
  private async reportToBatch(): Promise<void> {
    if (!this.input.batchId) return;
    await recordBatchOutcome(this.input.batchId, settlementOf(this.view()));
  }

  /**
   * The final state, once: every payout of version 2 or later hands its final view and its queued merchant events
   * to settlePayout (which records a batch's outcome and announces the events); older ones report to their batch.
   */
  private async settle(): Promise<void> {
    if (this.calls.settlesEveryPayout) await settlePayout(this.view(), this.events.take());
    else await this.reportToBatch();
  }
}
