/**
 * Where a lifecycle keeps the provider's callbacks: whether one waits to be acted on, what the latest one said,
 * and how many callbacks and checks its view counts. A callback is a hint (the check is the truth), so only the latest counts; the provider's own
 * answer to a request is put here too when it is already more than "accepted". Pure in-memory state: putting
 * and taking write nothing to the history, and a replay rebuilds it from the signals.
 */
export class CallbackInbox<H> {
  private last: H | undefined;
  private waiting = false;
  private received = 0;
  private checks = 0;

  /** A callback arrived: counted whether or not the lifecycle keeps it. */
  heard(): void {
    this.received += 1;
  }

  /** The lifecycle looked at the provider, answered or not. */
  checked(): void {
    this.checks += 1;
  }

  counts(): { callbacksReceived: number; checksMade: number } {
    return { callbacksReceived: this.received, checksMade: this.checks };
  }

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
