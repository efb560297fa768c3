/**
 * A payout whose submission intent an earlier run of its workflow claimed (a reset, a re-run after a
 * terminate): that run may have sent it, so this one never sends. It asks the provider where it can
 * (endpoint 9 by our external_id, by the provider's id the earlier run recorded, or the crypto status);
 * an internal transfer the provider never named cannot be asked about, and goes to review.
 */
import type { Intent } from '../intents/intent-store';
import type { PayoutRequest } from './payout-request';
import { railProviderOf } from './rails/providers';
import type { PayoutPaymentApi, SubmitOutcome } from './rails/rail-provider';

export const SENT_BEFORE_RESET = 'sent before a reset; the provider cannot be asked';
export const CLAIMED_BEFORE_RESET =
  'claimed by an earlier run of this payout (a reset or a re-run) and not found at the provider: that run may still send it; recheck asks again, cancel once nothing can come';

export async function reconcileEarlierSubmission(payout: PayoutRequest, intent: Intent, api: PayoutPaymentApi): Promise<SubmitOutcome> {
  const rail = railProviderOf(payout);
  const found = await rail.check({ externalId: payout.externalId, ...(intent.providerId ? { providerTransactionId: intent.providerId } : {}) }, api);
  if (found.kind === 'unknowable') return { kind: 'unknown', reason: SENT_BEFORE_RESET };
  if (found.kind === 'not-found') return { kind: 'unknown', reason: CLAIMED_BEFORE_RESET };
  const feeCents = found.feeCents ?? 0;
  return { kind: 'accepted', transactionId: found.transactionId, providerStatus: found.providerState, feeCents, totalCents: payout.amountCents + feeCents, reconciled: true };
}
