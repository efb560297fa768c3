/** The wait every lifecycle test repeats: an engine resource read until it reaches one of some statuses. */
import { pollUntil } from '../../src/util/poll';
import type { EngineHarness } from './engine-harness';

/** Reads GET `path` at the engine until its status is one of `statuses`; the view then. `what` names it in a timeout. */
export function waitForStatus<T extends { status: string }>(
  stack: Pick<EngineHarness, 'api'>,
  what: string,
  path: string,
  statuses: string[],
  timeoutMs = 30_000,
): Promise<T> {
  return pollUntil(
    async () => {
      const answer = await stack.api<T>('GET', path);
      return answer.status === 200 && statuses.includes(answer.body.status) ? answer.body : undefined;
    },
    { timeoutMs, intervalMs: 200, description: `${what} to reach ${statuses.join('|')}` },
  );
}
