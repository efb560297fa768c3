/** What infraction tests keep asking: an infraction's view once it reaches one of the states. */
import type { InfractionResponse } from '../../src/api/infractions/schemas';
import { pollUntil } from '../../src/util/poll';
import type { EngineHarness } from './engine-harness';

/**
 * Triggers the MED sync again while it waits: a trigger that meets the previous sync still running is
 * skipped (the Schedule's overlap policy), which a loaded machine makes likely.
 */
export function waitForInfraction(stack: EngineHarness, id: string, statuses: string[]): Promise<InfractionResponse> {
  return pollUntil(
    async () => {
      const answer = await stack.api<InfractionResponse>('GET', `/v1/infractions/${id}`);
      if (answer.status === 200 && statuses.includes(answer.body.status)) return answer.body;
      await stack.api('POST', '/v1/infractions/sync');
      return undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500, description: `infraction ${id} to reach ${statuses.join('|')}` },
  );
}
