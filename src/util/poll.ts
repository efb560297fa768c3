/** Thrown by a probe to give up at once instead of retrying until the deadline. */
export class StopPolling extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StopPolling';
  }
}

/** Polls until `probe` returns a value other than undefined, or the deadline passes. */
export async function pollUntil<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  options: { timeoutMs: number; intervalMs?: number; description: string },
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 100;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      if (error instanceof StopPolling) throw error;
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.description}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
