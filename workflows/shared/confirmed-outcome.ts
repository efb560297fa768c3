/**
 * The wait every lifecycle that asks a provider shares: wait for a callback (a hint) or a timer, then
 * ask the provider's check, which is the truth; after a hint look again soon, after silence back off;
 * past the review deadline stop and let the caller put the operation where an operator sees it.
 * Every wait has a timer; a hint already there costs no timer at all.
 */
import { condition } from '@temporalio/workflow';
import { nowMs } from './clock';

export interface OutcomeTiming {
  /** How long to wait for the first callback before asking the provider. */
  callbackWaitMs: number;
  pollInitialMs: number;
  pollMaxMs: number;
  /** From the start of the wait: past this without a final answer, the caller's review state. */
  reviewAfterMs: number;
}

export interface OutcomeSource {
  /** A hint or an operator's request waits: ask the provider now. */
  hasNews(): boolean;
  /** Consumes the pending hint (the lifecycle's CallbackInbox.take()); true when there was one. */
  takeHint(): boolean;
  /** Asks the provider and applies its answer; true when the outcome is final. */
  check(): Promise<boolean>;
  /** Still in the state this wait belongs to (a check may have moved it). */
  waiting(): boolean;
}

/** 'settled': a check gave the final outcome (or the state moved on); 'review': the deadline passed first. */
export async function awaitConfirmedOutcome(
  timing: OutcomeTiming,
  source: OutcomeSource,
): Promise<'settled' | 'review'> {
  const reviewAt = nowMs() + timing.reviewAfterMs;
  let wait = timing.callbackWaitMs;
  let pollDelay = timing.pollInitialMs;
  while (source.waiting()) {
    const remaining = reviewAt - nowMs();
    if (remaining <= 0) return 'review';
    if (!source.hasNews()) await condition(() => source.hasNews(), Math.min(wait, remaining));
    const afterHint = source.takeHint();
    if (await source.check()) return 'settled';
    if (afterHint) {
      pollDelay = timing.pollInitialMs;
      wait = pollDelay;
    } else {
      wait = pollDelay;
      pollDelay = Math.min(pollDelay * 2, timing.pollMaxMs);
    }
  }
  return 'settled';
}
