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
 * Before a workflow returns: waits for the update handlers still running. Nearly always none is, and then
 * nothing is awaited: a condition would cost every operation three promises, each paying the SDK's promise
 * hook (a captured, source-mapped stack). A condition adds nothing to the history, so replay is unchanged.
 */
export async function handlersFinished(): Promise<void> {
  if (!allHandlersFinished()) await condition(allHandlersFinished);
}
