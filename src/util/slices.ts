/**
 * Long synchronous work (reading, validating, sealing and storing 100,000 rows) written as a generator
 * that yields between slices: the same code runs at once where nothing else waits (tests, small inputs),
 * or gives the event loop a turn after every slice, so that a server keeps answering while it works.
 */
export type Slices<T> = Generator<void, T, void>;

export function runAtOnce<T>(work: Slices<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

export async function runInSlices<T>(work: Slices<T>): Promise<T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await yieldToEventLoop();
  }
}

/** setImmediate, not a resolved promise: pending I/O (incoming requests, timers) runs before the next slice. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
