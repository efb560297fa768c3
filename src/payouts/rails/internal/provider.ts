/**
 * Internal transfer at the provider (endpoint 11). The request carries no id of ours, so the provider
 * cannot be asked "did you get transfer X?" and would make a second transfer if the request were sent
 * again: it is posted once. A clear refusal (400, 404, 422: an e-mail that is no user of the environment,
 * say) is FAILED with the provider's words. Only an error that proves the provider did nothing is tried
 * again, at once and briefly; an answer lost after the request left (timeout, reset, a 5xx other than 503,
 * a body we cannot read) is 'unknown'. A later activity attempt never reaches here: the payout's intent
 * sends it to the check, which reads the transfer by the provider's id or says it cannot be asked.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { centavosToReais } from '../../../money/centavos';
import { AuthenticationError, isClearRefusal, providerDidNothing } from '../../../payment-api/errors';
import { transactionCheck, type RailProvider, type SubmitOutcome } from '../rail-provider';
import type { InternalPayout } from './request';

const TRIES_WHILE_NOTHING_SENT = 3;

function outcomeOfError(error: unknown): SubmitOutcome {
  if (isClearRefusal(error)) return { kind: 'rejected', reason: error.message };
  if (error instanceof AuthenticationError)
    return {
      kind: 'rejected',
      reason: `the provider refused the engine's credentials; nothing was sent (${error.message})`,
    };
  if (providerDidNothing(error))
    return {
      kind: 'rejected',
      reason: `the provider could not take the transfer; nothing was sent (${error instanceof Error ? error.message : String(error)})`,
    };
  const what = error instanceof Error ? error.message : String(error);
  return {
    kind: 'unknown',
    reason: `the transfer may have been made: ${what}. An internal transfer cannot be looked up by our id: recheck reads it only by the provider's id, which was not answered`,
  };
}

export const internalProvider: RailProvider<InternalPayout> = {
  async submit(payout, { api }) {
    for (let tries = 1; ; tries += 1) {
      try {
        const { data } = await api.internalTransfer({
          email: payout.email,
          amount: centavosToReais(payout.amountCents),
          ...(payout.description ? { description: payout.description } : {}),
        });
        // The provider answers a done transfer (its new balance): the check by its id confirms it.
        return {
          kind: 'accepted',
          transactionId: data.transactionId,
          providerStatus: 'TRANSFERRED',
          feeCents: 0,
          totalCents: payout.amountCents,
          reconciled: false,
        };
      } catch (error) {
        const triedAgain =
          providerDidNothing(error) && !isClearRefusal(error) && !(error instanceof AuthenticationError);
        if (!triedAgain || tries >= TRIES_WHILE_NOTHING_SENT) return outcomeOfError(error);
        await delay(500 * 2 ** tries);
      }
    }
  },
  check: (ref, api) =>
    ref.providerTransactionId
      ? transactionCheck(api, ref.providerTransactionId)
      : Promise.resolve({
          kind: 'unknowable',
          reason: 'the provider never answered its id for this transfer, and cannot be asked by ours',
        }),
};
