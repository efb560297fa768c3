/**
 * The card payment's state machine: its state, one method per phase, and the answers to the outside world.
 *
 *   awaitCard          AWAITING_CARD → AUTHORIZING (the checkout took a card: an update) | FAILED (3DS
 *                      failed at the checkout: an update) | EXPIRED (nobody paid before expiresAt)
 *   awaitAuthorization AUTHORIZING → PENDING | FAILED (the API reports endpoint 2's answer: a signal)
 *                      AUTHORIZING → NEEDS_REVIEW (no answer by the deadline, or an unknown one)
 *   awaitOutcome       PENDING → PAID | FAILED (callback hint or timer, then endpoint 3), NEEDS_REVIEW past the review deadline
 *   awaitNews          NEEDS_REVIEW → PENDING | PAID | FAILED once the payment id is known (late answer, callback,
 *                      or an operator's recheck naming it); NEEDS_REVIEW → FAILED when an operator closes it
 *
 * The provider's payment id may come from the API's answer or from the PAYMENT_UPDATED callback, which
 * names it: a crash between endpoint 2's answer and the signal leaves a visible NEEDS_REVIEW, settled
 * as soon as the callback arrives. Whatever brought the id (an answer, a callback, an operator's
 * recheck), only a payment bound to this order settles it: the provider must report this order's
 * externalId as its `externalReference`, and the order's amount and installment count. Anything else is
 * refused, logged and forgotten, so that another payment (someone else's, or a cheaper one) cannot pay
 * for this order.
 */
import { condition, log, patched, proxyActivities, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { CardPaymentCheck, CardPaymentActivities } from '../../activities/card-payment-activities';
import type { CardPaymentInput } from '../../src/card-payments/card-payment-input';
import type { CardOrder } from '../../src/card-payments/card-payment-request';
import { AmountCents, CardPaymentStatus, Flow } from '../../src/temporal/search-attributes';
import { CallbackInbox } from '../shared/callback-inbox';
import { awaitConfirmedOutcome } from '../shared/confirmed-outcome';
import { Lifecycle } from '../shared/lifecycle';
import { MerchantEventOutbox } from '../shared/merchant-events';
import { CARD_PAYMENT_EVENT_TYPES, cardPaymentEventData } from './merchant-events';
import { PendingUpdates } from '../shared/pending-updates';
import { CARD_PAYMENT_FLOW, CARD_PAYMENT_TRANSITIONS, type AuthorizationAnswer, type CardCallbackHint, type CardPaymentState, type CardPaymentView, type SubmittedCard } from './messages';
import { nowMs } from '../shared/clock';
import { failureMessage } from '../shared/activity-failures';
import { centavosToReais } from '../../src/money/centavos';

/** Payments recorded before the binding was checked keep the old rule on replay (reference only, when present). */
export const CARD_PAYMENT_BINDING_PATCH = 'card-payment-binding';

// A check that keeps failing returns "unknown" quickly: the outcome loop has its own timers and deadline.
const { checkCardPayment } = proxyActivities<CardPaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

type Details = Omit<CardPaymentView, 'state' | 'transitions' | 'callbacksReceived' | 'checksMade'>;

export class CardPayment {
  private readonly lifecycle: Lifecycle<CardPaymentState>;
  readonly events = new MerchantEventOutbox();
  private readonly details: Details;
  private callbacksReceived = 0;
  private checksMade = 0;
  private answer: AuthorizationAnswer | undefined;
  private readonly callbacks = new CallbackInbox<CardCallbackHint>();
  private readonly rechecks = new PendingUpdates<CardPaymentView>();
  private bindingChecked: boolean | undefined;

  constructor(private readonly input: CardPaymentInput) {
    // Started by the engine, the payment was indexed by its start request; started otherwise it indexes
    // itself. Read from the start event, so replay takes the same path.
    const indexedAtStart = workflowInfo().typedSearchAttributes.get(Flow) === CARD_PAYMENT_FLOW;
    this.lifecycle = new Lifecycle({
      table: CARD_PAYMENT_TRANSITIONS,
      initial: 'AWAITING_CARD',
      cause: 'card payment created; checkout open',
      stateAttribute: CardPaymentStatus,
      initialIndexed: indexedAtStart,
      outcome: (state) => cardPaymentOutcome(state, this.details),
    });
    if (!indexedAtStart) upsertSearchAttributes({ [Flow.name]: [CARD_PAYMENT_FLOW], [AmountCents.name]: [input.order.amountCents] });
    this.details = {
      externalId: input.order.externalId,
      amountCents: input.order.amountCents,
      installmentCount: input.order.installmentCount,
      expiresAt: input.expiresAt,
      requestHash: input.requestHash,
    };
    this.events.watch(this.lifecycle, CARD_PAYMENT_EVENT_TYPES, (state) => cardPaymentEventData(this.view(), state));
  }

  view(): CardPaymentView {
    return { ...this.details, state: this.lifecycle.state, transitions: this.lifecycle.history, callbacksReceived: this.callbacksReceived, checksMade: this.checksMade };
  }

  // ---- What the outside world says ----

  /** Update validator of the checkout's two calls: only while a card is awaited and the checkout is open. */
  validateCheckout(): void {
    if (this.lifecycle.state !== 'AWAITING_CARD') throw new Error(`the card payment is ${this.lifecycle.state}: its checkout takes no card`);
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
    this.callbacksReceived += 1;
    if (this.lifecycle.isTerminal()) return;
    this.details.providerPaymentId ??= hint.paymentId;
    this.callbacks.put(hint);
  }

  validateRecheck({ providerPaymentId }: { providerPaymentId?: number }): void {
    if (this.lifecycle.state !== 'PENDING' && this.lifecycle.state !== 'NEEDS_REVIEW') throw new Error(`the card payment is ${this.lifecycle.state}: nothing to ask the provider`);
    const known = this.details.providerPaymentId;
    if (providerPaymentId !== undefined && known !== undefined && known !== providerPaymentId) throw new Error(`the card payment is provider payment ${known}`);
  }

  /** Answered after the provider has next been asked, or when the payment ends. */
  recheck({ providerPaymentId }: { providerPaymentId?: number }): Promise<CardPaymentView> {
    this.details.providerPaymentId ??= providerPaymentId;
    return this.rechecks.wait();
  }

  validateClose(): void {
    if (this.lifecycle.state !== 'NEEDS_REVIEW') throw new Error(`the card payment is ${this.lifecycle.state}: only a payment in review can be closed`);
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
    if (this.lifecycle.state === 'AWAITING_CARD') this.lifecycle.moveTo('EXPIRED', 'nobody paid before the checkout expired');
  }

  private async awaitAuthorization(): Promise<void> {
    const heard = await condition(() => this.answer !== undefined || this.callbacks.pending, this.input.timing.authorizeDeadlineMs);
    if (!heard) {
      this.details.reviewReason = "the provider's answer did not reach the payment in time: the card may have been charged";
      this.lifecycle.moveTo('NEEDS_REVIEW', 'authorization deadline passed');
      return;
    }
    this.applyNews();
  }

  private async awaitOutcome(): Promise<void> {
    const waited = await awaitConfirmedOutcome(this.input.timing, {
      hasNews: () => this.callbacks.pending || this.answer !== undefined || this.rechecks.any,
      // An answer that comes once the payment is PENDING (a callback came first) only says "look now", as a callback does.
      takeHint: () => {
        const answered = this.answer !== undefined;
        this.answer = undefined;
        return this.callbacks.take() || answered;
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

  /** In review, only the payment id can settle it: a late answer, a callback or an operator brings it. */
  private async awaitNews(): Promise<void> {
    await condition(() => this.answer !== undefined || this.callbacks.pending || this.rechecks.any || this.lifecycle.state !== 'NEEDS_REVIEW');
    this.applyNews();
    if (this.lifecycle.state !== 'NEEDS_REVIEW') return;
    this.callbacks.take();
    if (this.details.providerPaymentId === undefined) {
      this.rechecks.answerAll(this.view());
      return;
    }
    if ((await this.check()) === 'open' && this.lifecycle.state === 'NEEDS_REVIEW') {
      this.lifecycle.moveTo('PENDING', `payment ${this.details.providerPaymentId} found at the provider, not final yet`);
    }
    this.rechecks.answerAll(this.view());
  }

  /** Applies the API's answer, or a callback's payment id when the answer was lost (the hint stays for the check). */
  private applyNews(): void {
    const answer = this.answer;
    this.answer = undefined;
    if (answer?.kind === 'accepted') {
      Object.assign(this.details, { providerPaymentId: answer.paymentId, brand: answer.brand, last4: answer.last4, providerStatus: answer.providerStatus, netValueCents: answer.netValueCents });
      if (this.lifecycle.can('PENDING')) this.lifecycle.moveTo('PENDING', `provider accepted payment ${answer.paymentId} (${answer.providerStatus})`);
      // The provider's immediate status is a hint too: look at once.
      this.callbacks.put({ paymentId: answer.paymentId, status: answer.providerStatus, receivedAt: new Date().toISOString() });
    } else if (answer?.kind === 'refused') {
      this.details.failureReason = answer.reason;
      this.lifecycle.moveTo('FAILED', 'provider refused the card payment');
    } else if (answer?.kind === 'unknown') {
      this.details.reviewReason = answer.reason;
      if (this.lifecycle.state === 'AUTHORIZING') this.lifecycle.moveTo('NEEDS_REVIEW', "the provider's answer was lost");
    } else if (this.callbacks.pending && this.details.providerPaymentId !== undefined && this.lifecycle.state === 'AUTHORIZING') {
      this.lifecycle.moveTo('PENDING', `the provider's callback named payment ${this.details.providerPaymentId}`);
    }
  }

  /** Why the provider's payment is not this order's: its reference, amount and installments must be the order's. */
  private bindingProblems(found: Extract<CardPaymentCheck, { kind: 'found' }>): string[] {
    const { order } = this.input;
    this.bindingChecked ??= patched(CARD_PAYMENT_BINDING_PATCH);
    if (!this.bindingChecked) return found.externalReference !== undefined && found.externalReference !== order.externalId ? ['at the provider belongs to another order'] : [];
    const problems: string[] = [];
    if (found.externalReference !== order.externalId) problems.push(found.externalReference === undefined ? 'at the provider names no order (externalReference)' : 'at the provider belongs to another order');
    if (found.amountCents !== order.amountCents) problems.push(`is of ${centavosToReais(found.amountCents)}, not the order's ${centavosToReais(order.amountCents)}`);
    if (found.installmentCount !== order.installmentCount) problems.push(`is in ${found.installmentCount ?? 'an unreported number of'} installments, not the order's ${order.installmentCount}`);
    return problems;
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
      this.checksMade += 1;
    }
    const foreign = outcome.kind === 'found' ? this.bindingProblems(outcome) : [];
    if (outcome.kind === 'not-found' || foreign.length > 0) {
      this.details.reviewReason = `payment ${paymentId} ${foreign.length > 0 ? foreign.join('; ') : 'is not at the provider'}`;
      if (foreign.length > 0) log.warn('card_payment.foreign_payment_refused', { paymentId, problems: foreign });
      // Not this order's (whatever the state), or absent while in review: forget it, so the right id can come.
      if (foreign.length > 0 || this.lifecycle.state === 'NEEDS_REVIEW') delete this.details.providerPaymentId;
      return 'unknown';
    }
    // What endpoint 3 did not say stays as the checkout or endpoint 2 said it.
    Object.assign(this.details, {
      ...(outcome.brand === undefined ? {} : { brand: outcome.brand }),
      ...(outcome.last4 === undefined ? {} : { last4: outcome.last4 }),
      ...(outcome.netValueCents === undefined ? {} : { netValueCents: outcome.netValueCents }),
      ...(outcome.providerStatus ? { providerStatus: outcome.providerStatus } : {}),
    });
    if (outcome.status === 'COMPLETED') {
      this.lifecycle.moveTo('PAID', `payment check: COMPLETED${outcome.providerStatus ? ` (${outcome.providerStatus})` : ''}`);
      return 'final';
    }
    if (outcome.status === 'FAILED') {
      this.details.failureReason = outcome.providerStatus === 'DECLINED' ? 'declined by the card issuer' : `the provider reported ${outcome.providerStatus ?? outcome.status}`;
      this.lifecycle.moveTo('FAILED', `payment check: FAILED${outcome.providerStatus ? ` (${outcome.providerStatus})` : ''}`);
      return 'final';
    }
    return 'open';
  }
}

/** What a card payment's state means for the merchant, for the Temporal UI's current details. */
function cardPaymentOutcome(state: CardPaymentState, details: Pick<Details, 'failureReason' | 'reviewReason'>): string | undefined {
  if (state === 'PAID') return 'the buyer paid';
  if (state === 'FAILED') return `not paid: ${details.failureReason ?? 'the payment failed'}`;
  if (state === 'EXPIRED') return 'not paid: nobody paid before the checkout expired';
  if (state === 'NEEDS_REVIEW') return `an operator must look at it: ${details.reviewReason ?? 'no confirmed outcome'}`;
  return undefined;
}
