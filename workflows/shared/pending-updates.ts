/**
 * Updates whose answer the workflow's main loop gives, not the handler: each handler waits here and
 * one call answers every waiting one with the same outcome, so concurrent updates all get an answer.
 * A lifecycle answers what is still waiting before it ends (nothing is left for allHandlersFinished).
 */
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
