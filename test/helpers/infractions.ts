/** What infraction tests keep asking: an infraction's view once it reaches one of the states. */
import type { InfractionResponse } from '../../src/api/infractions/infraction-response';
import { pollUntil } from '../../src/util/poll';
import type { EngineHarness } from './engine-harness';

export function waitForInfraction(stack: EngineHarness, id: string, statuses: string[]): Promise<InfractionResponse> {
  return pollUntil(
    async () => {
      const answer = await stack.api<InfractionResponse>('GET', `/v1/infractions/${id}`);
      return answer.status === 200 && statuses.includes(answer.body.status) ? answer.body : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 250, description: `infraction ${id} to reach ${statuses.join('|')}` },
  );
}
