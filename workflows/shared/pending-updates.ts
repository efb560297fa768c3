/**
 * Updates whose answer the workflow's main loop gives, not the handler: each handler waits here and
 * one call answers every waiting one with the same outcome, so concurrent updates all get an answer.
 * A lifecycle answers what is still waiting before it ends (nothing is left for allHandlersFinished).
 */
import { allHandlersFinished, condition } from '@temporalio/workflow';

export class PendingUpdates<T> {
  private waiting: ((answer: T) => void)[] = [];

  get any(): boolean {
    return this.waiting.length > 0;
  }

  wait(): Promise<T> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  answerAll(answer: T): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve(answer);
  }
}

/**
 * Rechecks: updates waiting for the main loop's next look at the provider, and looks asked for by a signal
 * that waits for no answer (a recheck sent while the workflow's task was busy: the API answered at once). The
 * next look answers both.
 */
export class LookRequests<T> extends PendingUpdates<T> {
  private asked = false;

  /** A look asked for without an answer awaited. */
  ask(): void {
    this.asked = true;
  }

  override get any(): boolean {
    return this.asked || super.any;
  }

  override answerAll(answer: T): void {
    this.asked = false;
    super.answerAll(answer);
  }
}

/**
 * Before a workflow returns: waits for the update handlers still running. Nearly always none is, and then
 * nothing is awaited: a condition would cost every operation three promises, each paying the SDK's promise
 * hook (a captured, source-mapped stack). A condition adds nothing to the history, so replay is unchanged.
 */
export async function handlersFinished(): Promise<void> {
  if (!allHandlersFinished()) await condition(allHandlersFinished);
}

/** What a lifecycle hands to activities and must see written before it closes (merchant events, read-model rows). */
interface Handover {
  drained(): Promise<void>;
}

/** A lifecycle's last step: its handovers written and its update handlers answered, its view is the workflow's result. */
export async function closeWith<V>(view: V, ...handovers: Handover[]): Promise<V> {
  for (const handover of handovers) await handover.drained();
  await handlersFinished();
  return view;
}
