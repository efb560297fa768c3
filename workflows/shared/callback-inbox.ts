/**
 * Where a lifecycle keeps the provider's callbacks: whether one waits to be acted on, and what the latest
 * one said. A callback is a hint (the check is the truth), so only the latest counts; the provider's own
 * answer to a request is put here too when it is already more than "accepted". Pure in-memory state: putting
 * and taking write nothing to the history, and a replay rebuilds it from the signals.
 */
export class CallbackInbox<H> {
  private last: H | undefined;
  private waiting = false;

  put(hint: H): void {
    this.last = hint;
    this.waiting = true;
  }

  /** A hint waits that no look at the provider has followed yet. */
  get pending(): boolean {
    return this.waiting;
  }

  /** Consumes the waiting hint (the caller is about to ask the provider); true when there was one. */
  take(): boolean {
    const had = this.waiting;
    this.waiting = false;
    return had;
  }

  /** The latest hint, taken or not: what the provider last said of its own accord (a failure's reason, a payment's time). */
  get latest(): H | undefined {
    return this.last;
  }
}
