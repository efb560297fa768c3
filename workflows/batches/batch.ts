/**
 * A payout batch's state machine. The items live in the batch store, not in Temporal: an activity starts
 * the next items as ordinary payout workflows (`payout:<externalId>`), each payout records its own outcome
 * in the store, and the batch only reads counts back to keep at most `window` payouts in flight. Its
 * history therefore grows with time, not with the number of items, and it continues as new before it
 * grows large, carrying only its cursor.
 *
 * Each step is one local activity, topUpBatch: the counts read and the next page started in one call, one
 * marker in the history. Runs recorded before it (no `payout-batch-top-up` marker) replay the step they were
 * recorded with, three remote activities (batchCounts, startBatchPayouts, batchCounts); a run continued as
 * new takes the top-up.
 */
import {
  ActivityFailure,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { BatchActivities, TopUp } from '../../activities/batch-activities';
import { BatchId, BatchStatus, Flow } from '../../src/temporal/search-attributes';
import { failureMessage } from '../shared/activity-failures';
import {
  BATCH_FLOW,
  type BatchInput,
  type BatchProblem,
  type BatchProgress,
  type BatchResult,
  type PayoutBatchWorkflow,
} from '../../src/contracts/batch';

/** The longest wait between two readings of the counts. */
const MAX_POLL_MS = 30_000;
/** The longest wait between two tries of an activity that keeps failing (a corrupt row, a full disk). */
const MAX_PROBLEM_RETRY_MS = 600_000;
const DEFAULT_PROBLEM_AFTER_MS = 300_000;
/** The runs that record this marker top the window up with one local activity per step. */
const TOP_UP_PATCH = 'payout-batch-top-up';

export class PayoutBatch {
  private cursor: number;
  private paused: boolean;
  private cancelled: boolean;
  private inFlight = 0;
  private problem: BatchProblem | undefined;
  private readonly run: number;
  private controlChanged = false;
  private waitMs: number;
  private readonly activities: BatchActivities;
  /** topUpBatch and the drain's batchCounts: no activity task, no workflow task of their own, one marker each. */
  private readonly local: BatchActivities;

  constructor(private readonly input: BatchInput) {
    const carried = input.carried ?? { cursor: 0, paused: false, cancelled: false, runsSoFar: 0 };
    ({ cursor: this.cursor, paused: this.paused, cancelled: this.cancelled } = carried);
    this.run = carried.runsSoFar + 1;
    this.waitMs = input.settings.pollMs;
    // Every try of an activity is bounded: one that keeps failing is reported, not retried silently forever.
    this.activities = proxyActivities<BatchActivities>({
      // Short: a worker that dies mid-call is noticed quickly (starting a page of payouts takes seconds).
      startToCloseTimeout: '30 seconds',
      scheduleToCloseTimeout: input.settings.problemAfterMs ?? DEFAULT_PROBLEM_AFTER_MS,
      retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
    });
    // The same bounds. A local activity holds the batch's workflow task open while it runs (the SDK heartbeats the
    // task past its 10 s timeout, so a page of a few seconds is fine); its retries wait on a timer from the second
    // backoff on (localRetryThreshold), so while the store keeps failing the task closes and the batch still answers
    // its progress query (the problem an operator reads) and hears pause, resume and cancel at once.
    this.local = proxyLocalActivities<BatchActivities>({
      startToCloseTimeout: '30 seconds',
      scheduleToCloseTimeout: input.settings.problemAfterMs ?? DEFAULT_PROBLEM_AFTER_MS,
      retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
      localRetryThreshold: '1 second',
    });
    upsertSearchAttributes({
      [Flow.name]: [BATCH_FLOW],
      [BatchId.name]: [input.batchId],
      [BatchStatus.name]: [this.status()],
    });
  }

  view(): BatchProgress {
    const { cursor, inFlight, paused, cancelled, problem } = this;
    return {
      batchId: this.input.batchId,
      cursor,
      inFlight,
      paused,
      cancelled,
      runsSoFar: this.run,
      ...(problem ? { problem } : {}),
    };
  }

  // ---- What the outside world says ----

  pause(): void {
    this.control(() => (this.paused = true));
  }

  resume(): void {
    this.control(() => (this.paused = false));
  }

  cancel(): void {
    this.control(() => (this.cancelled = true));
  }

  // ---- The run ----

  async runToEnd(): Promise<BatchResult> {
    const { batchId } = this.input;
    const topUp = patched(TOP_UP_PATCH);
    const counts = topUp ? this.local : this.activities;
    while (!this.cancelled && this.cursor < this.input.total) {
      if (this.paused) await this.waitPollInterval();
      else if (topUp) await this.topUpStep();
      else await this.remoteStep();
      await this.continueIfLarge();
    }

    if (this.cancelled) await this.persist('cancelPendingItems', () => this.activities.cancelPendingItems(batchId));
    // Nothing more starts: wait for the payouts in flight to reach an outcome.
    for (;;) {
      if ((await this.readInFlight(counts)) === 0) break;
      await this.waitPollInterval();
      await this.continueIfLarge();
    }
    await this.persist('closeBatch', () => this.activities.closeBatch(batchId));
    upsertSearchAttributes({ [BatchStatus.name]: [this.cancelled ? 'CANCELLED' : 'DONE'] });
    return { batchId, cancelled: this.cancelled, runs: this.run };
  }

  /** One step: the window topped up in one local activity; a full or held window (or a rate-capped page) waits before the next. */
  private async topUpStep(): Promise<void> {
    const { batchId, settings, timing } = this.input;
    const page: TopUp = await this.persist('topUpBatch', () =>
      this.local.topUpBatch(batchId, this.cursor, settings.window, this.pageLimit(), timing),
    );
    // Exhausted before `total`: the store has no more items, nothing is left to start.
    this.cursor = page.exhausted ? this.input.total : page.lastSeq;
    this.counted(page.inFlight - page.started, page.inFlight);
    if (page.started > 0 && settings.ratePerSecond) await sleep(1_000);
    else if (!page.exhausted && (page.started === 0 || page.inFlight >= settings.window)) await this.waitPollInterval();
  }

  /** One step as runs recorded before TOP_UP_PATCH took it: start items while the window has room, read the counts back while it has none. */
  private async remoteStep(): Promise<void> {
    const { batchId, settings } = this.input;
    await this.readInFlight(this.activities);
    const room = Math.min(settings.window - this.inFlight, this.pageLimit());
    if (room > 0 && !this.cancelled && !this.paused) {
      const page = await this.persist('startBatchPayouts', () =>
        this.activities.startBatchPayouts(batchId, this.cursor, room, this.input.timing),
      );
      // An empty page before `total` means the store has no more items: nothing is left to start.
      this.cursor = page.started === 0 ? this.input.total : page.lastSeq;
      this.inFlight += page.started;
      if (settings.ratePerSecond) await sleep(1_000);
    } else {
      await this.waitPollInterval();
    }
  }

  /** Most payouts one step starts: a page, and no more than a second's worth when the batch has a rate. */
  private pageLimit(): number {
    const { pageSize, ratePerSecond } = this.input.settings;
    return Math.min(pageSize, ratePerSecond ?? Number.POSITIVE_INFINITY);
  }

  private status(): string {
    return this.problem ? 'STALLED' : this.cancelled ? 'CANCELLED' : this.paused ? 'PAUSED' : 'RUNNING';
  }

  private control(change: () => void): void {
    change();
    this.controlChanged = true;
    upsertSearchAttributes({ [BatchStatus.name]: [this.status()] });
  }

  /** Runs an activity until it succeeds; while it fails past its bounded time, the batch shows why. */
  private async persist<T>(activity: string, call: () => Promise<T>): Promise<T> {
    let retryMs = this.input.settings.pollMs;
    for (;;) {
      try {
        const result = await call();
        if (this.problem) {
          this.problem = undefined;
          upsertSearchAttributes({ [BatchStatus.name]: [this.status()] });
        }
        return result;
      } catch (error) {
        if (!(error instanceof ActivityFailure)) throw error;
        this.problem = {
          activity,
          message: failureMessage(error),
          since: this.problem?.since ?? new Date().toISOString(),
        };
        upsertSearchAttributes({ [BatchStatus.name]: [this.status()] });
        setCurrentDetails(
          `**STALLED** since ${this.problem.since}: ${activity} keeps failing: ${this.problem.message}`,
        );
        await sleep(retryMs);
        retryMs = Math.min(retryMs * 2, MAX_PROBLEM_RETRY_MS);
      }
    }
  }

  private async continueIfLarge(): Promise<void> {
    if (workflowInfo().historyLength < this.input.settings.maxHistoryEvents && !workflowInfo().continueAsNewSuggested)
      return;
    const { cursor, paused, cancelled } = this;
    await continueAsNew<PayoutBatchWorkflow>({
      ...this.input,
      carried: { cursor, paused, cancelled, runsSoFar: this.run },
    });
  }

  /** The payouts in flight, from the store, through `activities` (local on the top-up path, remote before it). */
  private async readInFlight(activities: BatchActivities): Promise<number> {
    const now = (await this.persist('batchCounts', () => activities.batchCounts(this.input.batchId))).inFlight;
    this.counted(now, now);
    return now;
  }

  /**
   * A reading of the payouts in flight (`read`, before this step started any), against the last one, and the count
   * once this step's have started. Polls every pollMs while counts move; while nothing moves (a paused batch, a payout
   * waiting for review for hours) the wait doubles up to MAX_POLL_MS, so an idle batch costs next to nothing.
   */
  private counted(read: number, now: number): void {
    if (read !== this.inFlight) this.waitMs = this.input.settings.pollMs;
    this.inFlight = now;
    // Shown on the batch's page in the Temporal UI (not a command: replay-neutral).
    setCurrentDetails(
      `**${this.status()}**: ${this.cursor} of ${this.input.total} started, ${now} in flight (run ${this.run})`,
    );
  }

  /** Waits the current poll interval, or less when an operator pauses, resumes or cancels. */
  private async waitPollInterval(): Promise<void> {
    this.controlChanged = false;
    const interrupted = await condition(() => this.controlChanged, this.waitMs);
    const { pollMs } = this.input.settings;
    this.waitMs = interrupted ? pollMs : Math.min(this.waitMs * 2, Math.max(pollMs, MAX_POLL_MS));
  }
}
