/**
 * A stack for the whole test file: started before its tests, stopped after them. The answer stands for the
 * started stack, so a test calls `stack.api(...)` as it would on the stack itself, and no file repeats the
 * `let` / `beforeAll` / `afterAll` of starting and stopping it. Called inside a `describe`, the stack is that block's.
 */
export function forThisFile<T extends { close(): unknown }>(start: () => Promise<T>, timeoutMs?: number): T {
  return startedForThisFile(start, (started) => started.close(), timeoutMs);
}

/** As forThisFile, for a stack stopped otherwise than by `close()`. */
export function startedForThisFile<T extends object>(
  start: () => Promise<T>,
  stop: (started: T) => unknown,
  timeoutMs?: number,
): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  }, timeoutMs);
  afterAll(() => (started ? stop(started) : undefined));
  return standIn(() => {
    if (!started) throw new Error('the stack for this test file did not start');
    return started;
  });
}

/** An object that forwards every property read to what `current` answers at the time of the read. */
export function standIn<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get(_standIn, key) {
      const target = current();
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
