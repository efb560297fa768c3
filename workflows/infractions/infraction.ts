/**
 * A MED infraction's state machine. The provider's record (signalled by the MED sync) decides the
 * outcome; the merchant's defense (an update) is submitted once and answered only after the provider
 * took it (or refused it): the same defense again, while it is sent or after, gets that answer; a
 * different one is refused by the validator from the moment the first is taken until the provider refuses
 * it. The deadline drives two timers: DUE_SOON its lead time before (INFRACTION_DUE_SOON_LEAD_MS, a day by
 * default), DEADLINE_MISSED when it passes without a defense. The merchant is told it was opened (once the
 * charge it is about is known) and that it is due soon, each once. ACCEPTED tells the charge of the infracted cash-in, when the engine has one. An infraction the
 * sync could not read starts in NEEDS_REVIEW and waits for a record it can read (then OPEN).
 */
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { InfractionActivities } from '../../activities/infraction-activities';
import type { Defense } from '../../src/infractions/defense';
import { DIFFERENT_DEFENSE_SENT, sameDefense } from '../../src/infractions/same-defense';
import type { InfractionRecord } from '../../src/infractions/infraction-record';
import { isFinalProviderStatus } from '../../src/infractions/provider-status';
import { unreadableProblem } from '../../src/infractions/unreadable-record';
import { AmountCents, InfractionDueAt, InfractionStatus } from '../../src/temporal/search-attributes';
import { failureMessage } from '../shared/activity-failures';
import { Lifecycle } from '../shared/lifecycle';
import { MerchantEventOutbox } from '../shared/merchant-events';
import { OperationRows } from '../shared/operation-rows';
import { infractionRecord } from '../../src/read-model/operation-records';
import {
  DEADLINE_EVENTS_PATCH,
  INFRACTION_EVENT_PATCHES,
  INFRACTION_EVENT_TYPES,
  infractionEventData,
} from './merchant-events';
import { PendingUpdates } from '../shared/pending-updates';
import {
  type DefenseOutcome,
  type InfractionInput,
  type InfractionView,
  DEFENDABLE_STATES,
  INFRACTION_TRANSITIONS,
  type InfractionState,
} from '../../src/contracts/infraction';
import { nowMs } from '../shared/clock';

const { findCharge, recordRefundOnCharge } = proxyActivities<InfractionActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

// A defense is answered to a waiting merchant: a provider that stays down is reported, not waited for.
const { submitDefense } = proxyActivities<InfractionActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '20 seconds' },
});

/** The lead time of inputs of before the setting. */
const DEFAULT_DUE_SOON_LEAD_MS = 24 * 3_600_000;
/** The longest wait for the provider's next word: every wait has a timer, and history stays small. */
const MAX_WAIT_MS = 24 * 3_600_000;
/** Continue as new before the history grows large (syncs signal changed records only, so this is rare). */
const MAX_HISTORY_EVENTS = 5_000;

export class Infraction {
  private readonly lifecycle: Lifecycle<InfractionState>;
  readonly events = new MerchantEventOutbox();
  readonly rows: OperationRows;
  private details: Omit<InfractionView, 'state' | 'transitions'>;
  private latest: InfractionRecord | undefined;
  /** Taken by the update, waiting for the run loop to send it. */
  private pendingDefense: Defense | undefined;
  /** Being sent: the provider's answer has not come yet. */
  private sendingDefense: Defense | undefined;
  private readonly defenses = new PendingUpdates<DefenseOutcome>();
  private readonly dueSoonLeadMs: number;
  /** The index of the move to OPEN when this run made it (or started OPEN): infraction.opened is still to be announced. */
  private openedAt: number | undefined;

  constructor(input: InfractionInput) {
    this.dueSoonLeadMs = input.dueSoonLeadMs ?? DEFAULT_DUE_SOON_LEAD_MS;
    const carried = input.carried;
    const { record, unreadable } = input;
    this.lifecycle = new Lifecycle({
      table: INFRACTION_TRANSITIONS,
      initial: carried?.state ?? (record ? 'OPEN' : 'NEEDS_REVIEW'),
      cause: carried
        ? 'continued as new'
        : record
          ? 'seen in the provider list'
          : 'seen in the provider list with a record the engine could not read',
      stateAttribute: InfractionStatus,
      // The sync indexes it at start; a run continued as new keeps the attributes of the run before.
      initialIndexed: true,
      ...(carried ? { history: carried.transitions } : {}),
    });
    if (carried) {
      const review = carried.state === 'NEEDS_REVIEW' && carried.problem ? { problem: carried.problem } : {};
      this.details = {
        infractionId: carried.infractionId,
        ...(carried.record ? { record: carried.record } : {}),
        ...optional(carried),
        ...review,
      };
    } else if (record) this.details = { infractionId: record.infractionId, record };
    else if (unreadable) {
      const problem = {
        activity: 'syncInfractionPage',
        message: unreadableProblem(unreadable),
        since: new Date().toISOString(),
      };
      this.details = { infractionId: unreadable.infractionId, problem };
    } else throw new Error('an infraction starts with the provider record, readable or not');
    if (!carried) this.latest = record;
    if (!carried && record) this.openedAt = 0;
    this.events.watch(
      this.lifecycle,
      INFRACTION_EVENT_TYPES,
      (state) => infractionEventData(this.view(), state),
      INFRACTION_EVENT_PATCHES,
    );
    this.rows = new OperationRows(this.lifecycle, () => infractionRecord(this.view()));
  }

  view(): InfractionView {
    return { ...this.details, ...this.lifecycle.view() };
  }

  // ---- What the outside world says ----

  onRecord(record: InfractionRecord): void {
    this.latest = record;
  }

  /** A defense is refused when it cannot be sent, or differs from the one taken, being sent or sent. */
  validateDefense(defense: Defense): void {
    if (this.details.defense && sameDefense(this.details.defense, defense)) return;
    if (this.lifecycle.state === 'NEEDS_REVIEW')
      throw new Error('the provider record of this infraction could not be read: it cannot be defended until it can');
    if (!DEFENDABLE_STATES.includes(this.lifecycle.state))
      throw new Error(`the infraction is ${this.lifecycle.state}: it can no longer be defended`);
    const first = this.pendingDefense ?? this.sendingDefense ?? this.details.defense;
    if (first && !sameDefense(first, defense)) throw new Error(DIFFERENT_DEFENSE_SENT);
  }

  /** The first defense is sent; the same one again waits for (or gets) that defense's answer, never sends. */
  defend(defense: Defense): Promise<DefenseOutcome> {
    if (this.details.defense && !this.pendingDefense && !this.sendingDefense)
      return Promise.resolve({ submitted: true, view: this.view() });
    if (!this.sendingDefense) this.pendingDefense ??= defense;
    return this.defenses.wait();
  }

  // ---- The phases ----

  async run(): Promise<InfractionView> {
    const record = this.details.record ?? (await this.awaitReadableRecord());
    if (this.details.chargeExternalId === undefined)
      this.details.chargeExternalId = await findCharge(record.transactionId);
    this.announceOpened();
    while (!this.lifecycle.isTerminal()) {
      this.applyRecord();
      if (this.lifecycle.isTerminal()) break;
      if (this.pendingDefense) await this.submit(this.pendingDefense);
      this.followDeadline();
      if (this.lifecycle.isTerminal()) break;
      await this.continueAsNewIfLarge();
      await condition(() => this.latest !== undefined || this.pendingDefense !== undefined, this.nextWaitMs());
    }
    if (this.lifecycle.state === 'ACCEPTED') await this.recordRefund();
    this.defenses.answerAll({
      submitted: false,
      reason: `the infraction is ${this.lifecycle.state}`,
      view: this.view(),
    });
    return this.view();
  }

  /** NEEDS_REVIEW until the sync brings a record the engine can read (each wait bounded, history kept small): then OPEN. */
  private async awaitReadableRecord(): Promise<InfractionRecord> {
    while (!this.latest) {
      await this.continueAsNewIfLarge();
      await condition(() => this.latest !== undefined, MAX_WAIT_MS);
    }
    const record = this.latest;
    this.details.record = record;
    delete this.details.problem;
    upsertSearchAttributes({
      [AmountCents.name]: [record.amountCents],
      [InfractionDueAt.name]: [new Date(record.defenseDeadline)],
    });
    this.lifecycle.moveTo('OPEN', 'the provider record could be read');
    this.openedAt = this.lifecycle.history.length - 1;
    return record;
  }

  /** After the charge it is about was looked up, so the event names it; once, by the move's index. */
  private announceOpened(): void {
    const seq = this.openedAt;
    const move = seq === undefined ? undefined : this.lifecycle.history[seq];
    if (seq === undefined || !move) return;
    this.openedAt = undefined;
    this.events.announce({
      type: 'infraction.opened',
      occurredAt: move.at,
      seq,
      data: () => infractionEventData(this.view(), 'OPEN'),
      patch: DEADLINE_EVENTS_PATCH,
    });
  }

  /** The record the run works with: there from the start, or once NEEDS_REVIEW ended. */
  private get record(): InfractionRecord {
    if (!this.details.record) throw new Error('no provider record yet');
    return this.details.record;
  }

  /** The provider's latest word: its outcome, or a defense it holds that the engine did not send. */
  private applyRecord(): void {
    const record = this.latest;
    this.latest = undefined;
    if (!record) return;
    if (record.defenseDeadline !== this.record.defenseDeadline) {
      upsertSearchAttributes({ [InfractionDueAt.name]: [new Date(record.defenseDeadline)] });
      // A deadline moved without a move of the infraction: its row says the new one.
      this.rows.changed();
    }
    this.details.record = record;
    if (isFinalProviderStatus(record.providerStatus)) {
      this.lifecycle.moveTo(
        record.providerStatus,
        `provider resolved it ${record.providerStatus}${record.analise ? ` (defense: ${record.analise})` : ''}`,
      );
      return;
    }
    if (record.defendedAt && DEFENDABLE_STATES.includes(this.lifecycle.state)) {
      this.lifecycle.moveTo('DEFENSE_SUBMITTED', 'a defense was found at the provider');
    }
  }

  private async submit(defense: Defense): Promise<void> {
    this.pendingDefense = undefined;
    if (!DEFENDABLE_STATES.includes(this.lifecycle.state)) {
      this.defenses.answerAll({
        submitted: false,
        reason: `the infraction is ${this.lifecycle.state}: it can no longer be defended`,
        view: this.view(),
      });
      return;
    }
    this.sendingDefense = defense;
    try {
      await this.send(defense);
    } finally {
      this.sendingDefense = undefined;
    }
  }

  private async send(defense: Defense): Promise<void> {
    try {
      const answer = await submitDefense(this.details.infractionId, defense);
      if (answer.kind === 'refused') {
        this.defenses.answerAll({ submitted: false, reason: answer.reason, view: this.view() });
        return;
      }
      // Any 2xx is the defense taken; the record in the answer, when the engine can read one, is the provider's latest.
      if (answer.record) this.details.record = answer.record;
      this.details.defense = {
        ...defense,
        submittedAt: answer.record?.defendedAt ?? answer.submittedAt ?? new Date().toISOString(),
        ...(answer.providerAnswer ? { providerAnswer: answer.providerAnswer } : {}),
      };
      this.lifecycle.moveTo('DEFENSE_SUBMITTED', `defense ${defense.analise} accepted by the provider`);
      this.defenses.answerAll({ submitted: true, view: this.view() });
    } catch (error) {
      this.defenses.answerAll({
        submitted: false,
        reason: `the provider could not take the defense: ${failureMessage(error)}`,
        view: this.view(),
      });
    }
  }

  /** DUE_SOON its lead time before the deadline, DEADLINE_MISSED once it passed without a defense. */
  private followDeadline(): void {
    const now = nowMs();
    const deadline = Date.parse(this.record.defenseDeadline);
    if (this.lifecycle.state === 'OPEN' && now >= deadline - this.dueSoonLeadMs && now < deadline) {
      this.lifecycle.moveTo(
        'DUE_SOON',
        this.dueSoonLeadMs === DEFAULT_DUE_SOON_LEAD_MS
          ? 'the defense is due within a day'
          : `the defense is due within ${leadText(this.dueSoonLeadMs)}`,
      );
    }
    if (DEFENDABLE_STATES.includes(this.lifecycle.state) && now >= deadline) {
      this.lifecycle.moveTo('DEADLINE_MISSED', 'the deadline passed without a defense');
    }
  }

  private nextWaitMs(): number {
    const now = nowMs();
    const deadline = Date.parse(this.record.defenseDeadline);
    const next = [deadline - this.dueSoonLeadMs, deadline].find(
      (at) => at > now && DEFENDABLE_STATES.includes(this.lifecycle.state),
    );
    return Math.max(1, Math.min(MAX_WAIT_MS, (next ?? now + MAX_WAIT_MS) - now));
  }

  private async recordRefund(): Promise<void> {
    const chargeExternalId = this.details.chargeExternalId;
    if (!chargeExternalId) return;
    const recorded = await recordRefundOnCharge(chargeExternalId, {
      infractionId: this.details.infractionId,
      amountCents: this.record.amountCents,
    });
    if (recorded) this.details.refundRecordedAt = new Date().toISOString();
  }

  /** Only between iterations, and only once no defense is waiting: none is lost across runs. */
  private async continueAsNewIfLarge(): Promise<void> {
    if (workflowInfo().historyLength <= MAX_HISTORY_EVENTS && !workflowInfo().continueAsNewSuggested) return;
    await condition(() => this.pendingDefense !== undefined || allHandlersFinished());
    if (this.pendingDefense) return;
    await this.rows.drained();
    await continueAsNew<(input: InfractionInput) => Promise<InfractionView>>({
      record: this.details.record,
      carried: this.view(),
      dueSoonLeadMs: this.dueSoonLeadMs,
    });
  }
}

/** A lead time in the largest whole unit that states it: `2 days`, `36 hours`, `90 minutes`. */
function leadText(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
  ];
  for (const [size, name] of units) {
    if (ms % size === 0) return `${ms / size} ${name}${ms === size ? '' : 's'}`;
  }
  return `${Math.round(ms / 1_000)} seconds`;
}

function optional(
  view: InfractionView,
): Partial<Pick<InfractionView, 'chargeExternalId' | 'defense' | 'refundRecordedAt'>> {
  return {
    ...(view.chargeExternalId !== undefined ? { chargeExternalId: view.chargeExternalId } : {}),
    ...(view.defense ? { defense: view.defense } : {}),
    ...(view.refundRecordedAt ? { refundRecordedAt: view.refundRecordedAt } : {}),
  };
}
