/**
 * A PIX charge's state machine. Created at the provider once (the creation answers the merchant's
 * update-with-start); then callbacks are hints and the transaction check is the truth; at expiresAt one
 * last look decides EXPIRED; a payment confirmed within the late-payment window still wins; a paid
 * charge listens for accepted MED infractions (refunds) until its refund window closes. A charge re-created
 * after a lost creation answer watches every reference it was created under (./reference-watch.ts).
 */
import { condition, patched, proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { ChargeActivities, ChargeCheck } from '../../activities/charge-activities';
import type { AcceptedInfraction } from '../../src/infractions/charge-refunds';
import { referencesUpTo } from '../../src/charges/provider-reference';
import { ActivityProblemSince, ChargeStatus, ProviderTransactionId } from '../../src/temporal/search-attributes';
import { failureMessage } from '../shared/activity-failures';
import { CallbackInbox } from '../shared/callback-inbox';
import { awaitConfirmedOutcome } from '../shared/confirmed-outcome';
import { Lifecycle } from '../shared/lifecycle';
import { MerchantEventOutbox } from '../shared/merchant-events';
import { OperationRows } from '../shared/operation-rows';
import { chargeRecord } from '../../src/read-model/operation-records';
import { CHARGE_EVENT_TYPES, chargeEventData } from './merchant-events';
import type { ChargeInput } from '../../src/charges/charge-input';
import { CHARGE_TRANSITIONS, type CashInHint, type ChargeState, type ChargeView } from '../../src/contracts/charge';
import { nowMs } from '../shared/clock';
import { ReferenceWatch } from './reference-watch';

// Creating answers a merchant who waits: a provider that stays down fails the charge, not the request forever.
const { createCharge } = proxyActivities<ChargeActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '2 minutes',
  retry: {
    initialInterval: '500 milliseconds',
    backoffCoefficient: 2,
    maximumInterval: '10 seconds',
    nonRetryableErrorTypes: ['Conflict', 'BadChargeCode'],
  },
});

// A check that keeps failing is "not known yet": the loops around it have their own timers and deadlines.
const { checkCharge } = proxyActivities<ChargeActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

type ChargeDetails = Omit<ChargeView, 'state' | 'transitions' | 'callbacksReceived' | 'checksMade'>;

/** Marks histories whose charges index the provider's id at creation. */
const PROVIDER_ID_INDEX_PATCH = 'charge-provider-id-index';
/** Marks histories whose re-created charges watch every reference they were created under. */
const WATCH_EVERY_REFERENCE_PATCH = 'charge-watches-every-reference';

export class Charge {
  private readonly lifecycle: Lifecycle<ChargeState>;
  readonly events = new MerchantEventOutbox();
  readonly rows: OperationRows;
  private readonly details: ChargeDetails;
  private readonly callbacks = new CallbackInbox<CashInHint>();
  private created = false;
  /** The provider closed the charge (its FALHA): no payment can come any more. */
  private providerClosed = false;
  private providerExpiresAtMs = Number.POSITIVE_INFINITY;
  private readonly acceptedInfractions: AcceptedInfraction[] = [];
  /** Set when the charge was re-created under a derived reference: every reference it was created under. */
  private watch: ReferenceWatch | undefined;

  constructor(private readonly input: ChargeInput) {
    const { request } = input;
    this.lifecycle = new Lifecycle({
      table: CHARGE_TRANSITIONS,
      initial: 'PENDING',
      cause: 'charge requested',
      stateAttribute: ChargeStatus,
      initialIndexed: true,
      outcome: (state) => chargeOutcome(state, this.details),
    });
    this.details = {
      externalId: request.externalId,
      requestHash: input.requestHash,
      amountCents: request.amountCents,
      payerName: request.payer.name,
      ...(request.description ? { description: request.description } : {}),
      ...(request.split ? { split: request.split } : {}),
      refunds: [],
    };
    this.events.watch(this.lifecycle, CHARGE_EVENT_TYPES, (state) => chargeEventData(this.view(), state));
    this.rows = new OperationRows(this.lifecycle, () => chargeRecord(this.view()));
  }

  view(): ChargeView {
    return { ...this.details, ...this.lifecycle.view(), ...this.callbacks.counts() };
  }

  // ---- What the outside world says ----

  validateCreate(requestHash: string): void {
    if (requestHash !== this.input.requestHash)
      throw new Error(`a different charge already has the externalId ${this.input.request.externalId}`);
  }

  /** The merchant's answer: once the provider created the charge, or it failed. */
  async answerCreate(): Promise<ChargeView> {
    await condition(() => this.created || this.lifecycle.state !== 'PENDING');
    return this.view();
  }

  onCallback(hint: CashInHint): void {
    this.callbacks.heard();
    this.callbacks.put(hint);
  }

  onInfractionAccepted(infraction: AcceptedInfraction): void {
    this.acceptedInfractions.push(infraction);
  }

  // ---- Phases ----

  async run(): Promise<ChargeView> {
    await this.create();
    if (this.lifecycle.state === 'PENDING') await this.awaitPayment();
    if (this.lifecycle.state === 'EXPIRED') await this.awaitLatePayment();
    if (this.lifecycle.state === 'PAID')
      await (this.watch
        ? Promise.all([this.awaitRefunds(), this.watchOtherReferences(this.watch)])
        : this.awaitRefunds());
    return this.view();
  }

  private async create(): Promise<void> {
    let created;
    try {
      created = await createCharge(this.input);
    } catch (error) {
      this.fail(`the provider did not create the charge: ${failureMessage(error)}`);
      return;
    }
    if (created.kind === 'refused') {
      this.fail(`the provider refused the charge: ${created.reason}`);
      return;
    }
    this.details.qrcode = created.qrcode;
    if (created.providerReference) this.details.providerReference = created.providerReference;
    // A creation whose answer was lost may have made a charge whose code the provider sent the payer: every reference is watched.
    if (created.providerReference && patched(WATCH_EVERY_REFERENCE_PATCH)) {
      this.watch = new ReferenceWatch(referencesUpTo(this.input.request.externalId, created.providerReference));
      this.details.providerReferences = [...this.watch.references];
    }
    // Indexed at once, so that a callback naming the charge only by the provider's id finds it.
    if (created.providerTransactionId && patched(PROVIDER_ID_INDEX_PATCH))
      upsertSearchAttributes({ [ProviderTransactionId.name]: [created.providerTransactionId] });
    if (created.providerExpiresAt) this.providerExpiresAtMs = Date.parse(created.providerExpiresAt);
    // The provider's charge cannot outlive its own expiry: the earlier of the two is the charge's.
    const expiresAtMs = Math.min(nowMs() + this.input.request.expiresInSeconds * 1_000, this.providerExpiresAtMs);
    this.details.expiresAt = new Date(expiresAtMs).toISOString();
    this.created = true;
  }

  private async awaitPayment(): Promise<void> {
    const { timing } = this.input;
    const expiresAtMs = Date.parse(this.details.expiresAt ?? '');
    const waited = await awaitConfirmedOutcome(
      {
        callbackWaitMs: timing.callbackWaitMs,
        pollInitialMs: timing.pollInitialMs,
        pollMaxMs: timing.pollMaxMs,
        reviewAfterMs: expiresAtMs - nowMs(),
      },
      this.outcomeSource('PENDING'),
    );
    if (waited === 'review' && this.lifecycle.state === 'PENDING') {
      // At expiresAt, one last look: a payment made in its last second still counts.
      await this.check();
      if (this.lifecycle.state === 'PENDING')
        this.lifecycle.moveTo('EXPIRED', `not paid by ${this.details.expiresAt ?? 'its expiry'}`);
    }
  }

  private async awaitLatePayment(): Promise<void> {
    if (this.providerClosed && !this.watchesOthers()) return;
    const { timing } = this.input;
    await awaitConfirmedOutcome(
      {
        callbackWaitMs: timing.pollMaxMs,
        pollInitialMs: timing.pollInitialMs,
        pollMaxMs: timing.pollMaxMs,
        reviewAfterMs: timing.latePaymentWindowMs,
      },
      this.outcomeSource('EXPIRED'),
    );
  }

  /** After the order is paid, the other references until each is paid or closed, or the late-payment window ends: a payment of one is a second payment. */
  private async watchOtherReferences(watch: ReferenceWatch): Promise<void> {
    const until = Date.parse(this.details.expiresAt ?? '') + this.input.timing.latePaymentWindowMs;
    while (watch.open().length > 0) {
      const remaining = until - nowMs();
      if (remaining <= 0) return;
      await condition(() => this.callbacks.pending, Math.min(remaining, this.input.timing.pollMaxMs));
      this.callbacks.take();
      await this.checkEveryReference(watch);
    }
  }

  private async awaitRefunds(): Promise<void> {
    const closeAt = nowMs() + this.input.timing.refundWindowMs;
    while (this.lifecycle.state !== 'REFUNDED') {
      const remaining = closeAt - nowMs();
      if (remaining <= 0) return;
      await condition(() => this.acceptedInfractions.length > 0, remaining);
      for (const infraction of this.acceptedInfractions.splice(0)) this.refund(infraction);
    }
  }

  // ---- Steps ----

  private outcomeSource(state: ChargeState) {
    return {
      hasNews: () => this.callbacks.pending,
      takeHint: () => this.callbacks.take(),
      check: () => this.check(),
      waiting: () => this.lifecycle.state === state && (!this.providerClosed || this.watchesOthers()),
    };
  }

  private watchesOthers(): boolean {
    return this.watch !== undefined && this.watch.open().length > 0;
  }

  /** Asks the provider and applies its answer; true when nothing more will change before the next phase. */
  private async check(): Promise<boolean> {
    this.callbacks.checked();
    if (this.watch) return this.checkEveryReference(this.watch);
    let answer: ChargeCheck;
    try {
      answer = await checkCharge(this.details.providerReference ?? this.input.request.externalId);
    } catch {
      return false;
    }
    if (answer.kind === 'paid') {
      this.recordPayment(answer);
      return true;
    }
    if (answer.kind === 'failed') {
      this.closedAtProvider(answer);
      return true;
    }
    return false;
  }

  /** Each reference still open; true when the order is paid, or the charge's own reference closed and no other is open. */
  private async checkEveryReference(watch: ReferenceWatch): Promise<boolean> {
    const current = this.details.providerReference ?? this.input.request.externalId;
    for (const reference of watch.open()) {
      let answer: ChargeCheck;
      try {
        answer = await checkCharge(reference);
      } catch {
        continue;
      }
      if (answer.kind === 'paid') this.referencePaid(watch, reference, answer);
      if (answer.kind === 'failed') {
        watch.closed(reference);
        if (reference === current) this.closedAtProvider(answer);
      }
    }
    return this.lifecycle.state === 'PAID' || (this.providerClosed && watch.open().length === 0);
  }

  /** The first payment of any reference settles the order; another is a second payment, to refund by hand (the `problem` names both). */
  private referencePaid(watch: ReferenceWatch, reference: string, paid: Extract<ChargeCheck, { kind: 'paid' }>): void {
    if (watch.paid(reference, paid.providerTransactionId, paid.at) === 'first') {
      this.details.paidReference = reference;
      if (this.lifecycle.state === 'PENDING' || this.lifecycle.state === 'EXPIRED') this.recordPayment(paid);
      return;
    }
    this.details.secondPayments = [...watch.secondPayments];
    this.details.problem = watch.secondPaymentProblem(this.details.providerTransactionId ?? '');
    // Found where every problem is: ActivityProblemSince in the Temporal UI.
    upsertSearchAttributes({ [ActivityProblemSince.name]: [new Date(this.details.problem.since)] });
  }

  /** The provider closed the charge's own reference (its FALHA): no payment can come by it any more. */
  private closedAtProvider(failed: Extract<ChargeCheck, { kind: 'failed' }>): void {
    this.providerClosed = true;
    this.details.providerTransactionId = failed.providerTransactionId;
    if (this.lifecycle.state === 'PENDING') {
      if (this.callbacks.latest?.status === 'EXPIRED' || nowMs() >= this.providerExpiresAtMs)
        this.lifecycle.moveTo('EXPIRED', 'expired at the provider');
      else this.fail('the provider failed the charge');
    }
  }

  private recordPayment(paid: Extract<ChargeCheck, { kind: 'paid' }>): void {
    const late = this.lifecycle.state === 'EXPIRED';
    if (paid.feeCents !== undefined) this.details.feeCents = paid.feeCents;
    const hint = this.callbacks.latest;
    this.details.paidAt = hint?.status === 'PAID' && hint.paidAt ? hint.paidAt : paid.at;
    this.details.providerTransactionId = paid.providerTransactionId;
    // Indexed so that a MED infraction, which names the provider's id, finds this charge.
    upsertSearchAttributes({ [ProviderTransactionId.name]: [paid.providerTransactionId] });
    this.lifecycle.moveTo(
      'PAID',
      late
        ? 'paid after its expiry (late): money arrived, confirmed by the transaction check'
        : 'confirmed by the transaction check',
    );
  }

  private refund(infraction: AcceptedInfraction): void {
    if (this.details.refunds.some((refund) => refund.infractionId === infraction.infractionId)) return;
    this.details.refunds.push({ ...infraction, at: new Date().toISOString() });
    const refunded = this.details.refunds.reduce((sum, refund) => sum + refund.amountCents, 0);
    const cause = `MED infraction ${infraction.infractionId} accepted`;
    this.lifecycle.moveTo(refunded >= this.details.amountCents ? 'REFUNDED' : 'PARTIALLY_REFUNDED', cause);
  }

  private fail(reason: string): void {
    this.details.failureReason = reason;
    this.lifecycle.moveTo('FAILED', reason);
  }
}

/** What a charge's state means for the merchant, for the Temporal UI's current details. */
function chargeOutcome(state: ChargeState, details: Pick<ChargeDetails, 'failureReason'>): string | undefined {
  if (state === 'PAID') return 'the payer paid';
  if (state === 'FAILED') return `not paid: ${details.failureReason ?? 'the charge failed'}`;
  if (state === 'EXPIRED') return 'not paid by its expiry (a late payment may still arrive)';
  if (state === 'REFUNDED' || state === 'PARTIALLY_REFUNDED')
    return 'paid, then returned to the payer by an accepted MED claim';
  return undefined;
}
