/**
 * The card payment's state machine: its state, one method per phase, and the answers to the outside world.
 *
 *   awaitCard          AWAITING_CARD → AUTHORIZING (the checkout took a card: an update) | FAILED (3DS
 *                      failed at the checkout: an update) | EXPIRED (nobody paid before expiresAt)
 *   awaitAuthorization AUTHORIZING → PENDING | FAILED (endpoint 2's answer: the checkout's signal, or at the deadline
 *                      the intent it recorded); AUTHORIZING → NEEDS_REVIEW (neither by the deadline, or an unknown one)
 *   awaitOutcome       PENDING → PAID | FAILED (callback hint or timer, then endpoint 3), NEEDS_REVIEW past the review deadline
 *   awaitNews          NEEDS_REVIEW → PENDING | PAID | FAILED once the payment id is known (late answer or its record,
 *                      signed callback, an operator's recheck naming it); NEEDS_REVIEW → FAILED when an operator closes it
 *
 * The payment id comes from the provider's own word (endpoint 2's answer; a signed PAYMENT_UPDATED callback, which
 * echoes this order's reference) or an operator: an unsigned callback only says "look now". Endpoint 3 must then show
 * the order's amount, and its reference and installments where it shows them (./payment-binding.ts); anything else is
 * refused, logged and forgotten, as is an id the provider cannot find (unless endpoint 2 answered it), so that another
 * payment (someone else's, or a cheaper one) cannot pay for this order.
 */
import { condition, log, patched } from '@temporalio/workflow';
import type { CardPaymentInput } from '../../src/card-payments/card-payment-input';
import type { CardOrder } from '../../src/card-payments/card-payment-request';
import { AmountCents, CardPaymentStatus } from '../../src/temporal/search-attributes';
import { CallbackInbox } from '../shared/callback-inbox';
import { awaitConfirmedOutcome } from '../shared/confirmed-outcome';
import { Lifecycle } from '../shared/lifecycle';
import { indexedLifecycle } from '../shared/start-index';
import { MerchantEventOutbox } from '../shared/merchant-events';
import { OperationRows } from '../shared/operation-rows';
import { cardPaymentRecord } from '../../src/read-model/operation-records';
import {
  CARD_PAYMENT_EVENT_PATCHES,
  CARD_PAYMENT_EVENT_TYPES,
  cardPaymentEventData,
  cardPaymentOutcome,
} from './merchant-events';
import { PendingUpdates } from '../shared/pending-updates';
import {
  CARD_PAYMENT_FLOW,
  CARD_PAYMENT_TRANSITIONS,
  type AuthorizationAnswer,
  type CardCallbackHint,
  type CardPaymentState,
  type CardPaymentView,
  type SubmittedCard,
} from '../../src/contracts/card-payment';
import { nowMs } from '../shared/clock';
import { failureMessage } from '../shared/activity-failures';
import {
  bindingProblems,
  CARD_PAYMENT_ANSWER_BINDING_PATCH,
  CARD_PAYMENT_BINDING_PATCH,
  finalOutcome,
  reportedDetails,
  type BindingRule,
} from './payment-binding';
import { checkCardPayment, recordedAnswer } from './provider-calls';

type Details = Omit<CardPaymentView, 'state' | 'transitions' | 'callbacksReceived' | 'checksMade'>;

export class CardPayment {
  private readonly lifecycle: Lifecycle<CardPaymentState>;
  readonly events = new MerchantEventOutbox();
  readonly rows: OperationRows;
  private readonly details: Details;
  private answer: AuthorizationAnswer | undefined;
  private readonly callbacks = new CallbackInbox<CardCallbackHint>();
  private readonly rechecks = new PendingUpdates<CardPaymentView>();
  private bindingChecked: boolean | undefined;
  /** Payments started with the card-payment-answer-binding patch take ids from the provider's own word only (above). */
  private readonly boundByAnswer: boolean;
  /** The id is endpoint 2's answer: kept while endpoint 3 cannot find it yet. */
  private idFromAnswer = false;

  constructor(private readonly input: CardPaymentInput) {
    this.boundByAnswer = patched(CARD_PAYMENT_ANSWER_BINDING_PATCH);
    this.lifecycle = indexedLifecycle(
      {
        table: CARD_PAYMENT_TRANSITIONS,
        initial: 'AWAITING_CARD',
        cause: 'card payment created; checkout open',
        stateAttribute: CardPaymentStatus,
        outcome: (state) => cardPaymentOutcome(state, this.details),
      },
      CARD_PAYMENT_FLOW,
      { [AmountCents.name]: [input.order.amountCents] },
    );
    this.details = {
      externalId: input.order.externalId,
      amountCents: input.order.amountCents,
      installmentCount: input.order.installmentCount,
      expiresAt: input.expiresAt,
      requestHash: input.requestHash,
    };
    this.events.watch(
      this.lifecycle,
      CARD_PAYMENT_EVENT_TYPES,
      (state) => cardPaymentEventData(this.view(), state),
      CARD_PAYMENT_EVENT_PATCHES,
    );
    this.rows = new OperationRows(this.lifecycle, () => cardPaymentRecord(this.view()));
  }

  view(): CardPaymentView {
    return { ...this.details, ...this.lifecycle.view(), ...this.callbacks.counts() };
  }

  // ---- What the outside world says ----

  /** Update validator of the checkout's two calls: only while a card is awaited and the checkout is open. */
  validateCheckout(): void {
    if (this.lifecycle.state !== 'AWAITING_CARD')
      throw new Error(`the card payment is ${this.lifecycle.state}: its checkout takes no card`);
    if (nowMs() >= Date.parse(this.input.expiresAt)) throw new Error('the checkout has expired');
  }

  /** Moves at once, so a second submission of the checkout is refused by the validator. */
  startAuthorization(card: SubmittedCard): CardOrder {
    this.details.brand = card.brand;
    this.details.last4 = card.last4;
    this.lifecycle.moveTo('AUTHORIZING', `card ${card.brand} ending in ${card.last4} submitted at the checkout`);
    return this.input.order;
  }

  failCheckout({ reason }: { reason: string }): CardPaymentView {
    this.details.failureReason = reason;
    this.lifecycle.moveTo('FAILED', `the checkout failed: ${reason}`);
    return this.view();
  }

  /** The first answer counts: the API reports once per authorization. */
  onAnswer(answer: AuthorizationAnswer): void {
    if (this.lifecycle.isTerminal()) return;
    this.answer ??= answer;
  }

  onCallback(hint: CardCallbackHint): void {
    this.callbacks.heard();
    if (this.lifecycle.isTerminal()) return;
    if (!this.boundByAnswer) {
      // The old rules knew no hint without an id: one is a "look now" once an id is known, else nothing.
      if (hint.paymentId === undefined && this.details.providerPaymentId === undefined) return;
      this.details.providerPaymentId ??= hint.paymentId;
    } else if (hint.paymentId !== undefined && this.lifecycle.state !== 'AWAITING_CARD') {
      // Signed: the provider names its payment of this order. Before the card step no payment of this order can exist.
      this.details.providerPaymentId ??= hint.paymentId;
    }
    this.callbacks.put(hint);
  }

  validateRecheck({ providerPaymentId }: { providerPaymentId?: number }): void {
    if (this.lifecycle.state !== 'PENDING' && this.lifecycle.state !== 'NEEDS_REVIEW')
      throw new Error(`the card payment is ${this.lifecycle.state}: nothing to ask the provider`);
    const known = this.details.providerPaymentId;
    if (providerPaymentId !== undefined && known !== undefined && known !== providerPaymentId)
      throw new Error(`the card payment is provider payment ${known}`);
  }

  /** Answered after the provider has next been asked, or when the payment ends. */
  recheck({ providerPaymentId }: { providerPaymentId?: number }): Promise<CardPaymentView> {
    if (providerPaymentId !== undefined) this.details.providerPaymentId ??= providerPaymentId;
    return this.rechecks.wait();
  }

  validateClose(): void {
    if (this.lifecycle.state !== 'NEEDS_REVIEW')
      throw new Error(`the card payment is ${this.lifecycle.state}: only a payment in review can be closed`);
    const known = this.details.providerPaymentId;
    if (known !== undefined) throw new Error(`the provider has payment ${known} for it: recheck it instead`);
  }

  close({ reason }: { reason: string }): CardPaymentView {
    this.details.failureReason = `closed by an operator: ${reason}`;
    this.lifecycle.moveTo('FAILED', `closed by an operator (no charge at the provider): ${reason}`);
    return this.view();
  }

  // ---- The phases ----

  async run(): Promise<CardPaymentView> {
    await this.awaitCard();
    while (!this.lifecycle.isTerminal()) {
      if (this.lifecycle.state === 'AUTHORIZING') await this.awaitAuthorization();
      else if (this.lifecycle.state === 'PENDING') await this.awaitOutcome();
      else await this.awaitNews();
    }
    this.rechecks.answerAll(this.view());
    return this.view();
  }

  private async awaitCard(): Promise<void> {
    const remaining = Date.parse(this.input.expiresAt) - nowMs();
    if (remaining > 0) await condition(() => this.lifecycle.state !== 'AWAITING_CARD', remaining);
    if (this.lifecycle.state === 'AWAITING_CARD')
      this.lifecycle.moveTo('EXPIRED', 'nobody paid before the checkout expired');
  }

  private async awaitAuthorization(): Promise<void> {
    // A hint without a payment id (unsigned) cannot move it: only the answer, or a signed callback's id.
    const named = () => this.callbacks.pending && (!this.boundByAnswer || this.details.providerPaymentId !== undefined);
    const heard = await condition(() => this.answer !== undefined || named(), this.input.timing.authorizeDeadlineMs);
    // The checkout's signal may be lost while its record of the answer is not.
    if (!heard && this.boundByAnswer) this.answer = await recordedAnswer(this.input.order.externalId);
    if (!heard && this.answer === undefined) {
      this.details.reviewReason =
        "the provider's answer did not reach the payment in time: the card may have been charged";
      this.lifecycle.moveTo('NEEDS_REVIEW', 'authorization deadline passed');
      return;
    }
    this.applyNews();
  }

  private async awaitOutcome(): Promise<void> {
    const waited = await awaitConfirmedOutcome(this.input.timing, {
      hasNews: () => this.callbacks.pending || this.answer !== undefined || this.rechecks.any,
      // An answer that comes once the payment is PENDING (a signed callback came first) says "look now", and names the payment.
      takeHint: () => {
        const answer = this.answer;
        this.answer = undefined;
        if (answer?.kind === 'accepted' && this.boundByAnswer) this.acceptAnswer(answer);
        return this.callbacks.take() || answer !== undefined;
      },
      check: async () => {
        const found = await this.check();
        this.rechecks.answerAll(this.view());
        return found === 'final';
      },
      waiting: () => this.lifecycle.state === 'PENDING',
    });
    if (waited === 'review') {
      this.details.reviewReason = 'no confirmed outcome before the review deadline';
      this.lifecycle.moveTo('NEEDS_REVIEW', 'review deadline passed');
    }
  }

  /** In review, only the payment id can settle it: a late answer (or the checkout's record of it), a signed callback or an operator brings it. */
  private async awaitNews(): Promise<void> {
    await condition(
      () =>
        this.answer !== undefined ||
        this.callbacks.pending ||
        this.rechecks.any ||
        this.lifecycle.state !== 'NEEDS_REVIEW',
    );
    this.applyNews();
    if (this.lifecycle.state !== 'NEEDS_REVIEW') return;
    this.callbacks.take();
    if (this.details.providerPaymentId === undefined && this.boundByAnswer) {
      this.answer = await recordedAnswer(this.input.order.externalId);
      this.applyNews();
      if (this.lifecycle.state !== 'NEEDS_REVIEW') return;
    }
    if (this.details.providerPaymentId === undefined) {
      this.rechecks.answerAll(this.view());
      return;
    }
    if ((await this.check()) === 'open' && this.lifecycle.state === 'NEEDS_REVIEW') {
      this.lifecycle.moveTo(
        'PENDING',
        `payment ${this.details.providerPaymentId} found at the provider, not final yet`,
      );
    }
    this.rechecks.answerAll(this.view());
  }

  /** Endpoint 2's answer names the payment: it replaces any id named otherwise. */
  private acceptAnswer(answer: Extract<AuthorizationAnswer, { kind: 'accepted' }>): void {
    const { paymentId, brand, last4, providerStatus, netValueCents, eci } = answer;
    // What the answer did not show stays as the checkout said it.
    Object.assign(this.details, {
      providerPaymentId: paymentId,
      ...(brand ? { brand } : {}),
      ...(last4 ? { last4 } : {}),
      ...(providerStatus ? { providerStatus } : {}),
      ...(netValueCents === undefined ? {} : { netValueCents }),
      ...(eci ? { eci } : {}),
    });
    this.idFromAnswer = true;
  }

  /** Applies the API's answer, or a signed callback's payment id when the answer was lost (the hint stays for the check). */
  private applyNews(): void {
    const answer = this.answer;
    this.answer = undefined;
    if (answer?.kind === 'accepted') {
      this.acceptAnswer(answer);
      if (this.lifecycle.can('PENDING'))
        this.lifecycle.moveTo(
          'PENDING',
          `provider accepted payment ${answer.paymentId}${answer.providerStatus ? ` (${answer.providerStatus})` : ''}`,
        );
      // The provider's immediate status is a hint too: look at once.
      this.callbacks.put({
        paymentId: answer.paymentId,
        status: answer.providerStatus ?? 'UNKNOWN',
        receivedAt: new Date().toISOString(),
      });
    } else if (answer?.kind === 'refused') {
      this.details.failureReason = answer.reason;
      this.lifecycle.moveTo('FAILED', 'provider refused the card payment');
    } else if (answer?.kind === 'unknown') {
      this.details.reviewReason = answer.reason;
      if (this.lifecycle.state === 'AUTHORIZING')
        this.lifecycle.moveTo('NEEDS_REVIEW', "the provider's answer was lost");
    } else if (
      this.callbacks.pending &&
      this.details.providerPaymentId !== undefined &&
      this.lifecycle.state === 'AUTHORIZING'
    ) {
      this.lifecycle.moveTo('PENDING', `the provider's callback named payment ${this.details.providerPaymentId}`);
    }
  }

  /** Which rule binds a payment to this order (./payment-binding.ts), decided once, at its first check. */
  private bindingRule(): BindingRule {
    if (this.boundByAnswer) return 'amount-and-what-is-shown';
    this.bindingChecked ??= patched(CARD_PAYMENT_BINDING_PATCH);
    return this.bindingChecked ? 'reference-amount-installments' : 'reference-when-shown';
  }

  private forgetPaymentId(): void {
    delete this.details.providerPaymentId;
    this.idFromAnswer = false;
  }

  /** Endpoint 3 answered without what settles the order: shown as the payment's problem until it answers readably. */
  private showUnreadable(problem: string): void {
    const since = this.details.problem?.since ?? new Date().toISOString();
    this.details.problem = { activity: 'checkCardPayment', message: problem, since };
  }

  /** Asks endpoint 3 and applies a final answer: 'final', 'open' (at the provider, not final), or 'unknown'. */
  private async check(): Promise<'final' | 'open' | 'unknown'> {
    const paymentId = this.details.providerPaymentId;
    if (paymentId === undefined) return 'unknown';
    let outcome: Awaited<ReturnType<typeof checkCardPayment>>;
    try {
      outcome = await checkCardPayment(paymentId);
    } catch (error) {
      this.details.reviewReason = `payment check failed: ${failureMessage(error)}`;
      return 'unknown';
    } finally {
      this.callbacks.checked();
    }
    if (outcome.kind === 'unreadable') {
      this.showUnreadable(outcome.problem);
      return 'unknown';
    }
    delete this.details.problem;
    const foreign = outcome.kind === 'found' ? bindingProblems(outcome, this.input.order, this.bindingRule()) : [];
    if (outcome.kind === 'not-found' || foreign.length > 0) {
      this.details.reviewReason = `payment ${paymentId} ${foreign.length > 0 ? foreign.join('; ') : 'is not at the provider'}`;
      if (foreign.length > 0) log.warn('card_payment.foreign_payment_refused', { paymentId, problems: foreign });
      // Not this order's (whatever the state), or absent while in review (or, named by anyone but endpoint 2, ever): forget it, so the right id can come.
      const absentForGood = this.lifecycle.state === 'NEEDS_REVIEW' || (this.boundByAnswer && !this.idFromAnswer);
      if (foreign.length > 0 || absentForGood) this.forgetPaymentId();
      return 'unknown';
    }
    Object.assign(this.details, reportedDetails(outcome));
    const final = finalOutcome(outcome);
    if (!final) return 'open';
    if (final.failureReason) this.details.failureReason = final.failureReason;
    this.lifecycle.moveTo(final.state, final.cause);
    return 'final';
  }
}
