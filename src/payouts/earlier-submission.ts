/**
 * A payout whose submission intent was claimed before this attempt: by an earlier run of its workflow (a
 * reset, a re-run after a terminate), or by an earlier attempt of this run whose answer was lost (a
 * timeout, a reset, a 5xx, a worker gone mid-request). That attempt may have reached the provider, which
 * may still make the payout later, whatever its check says now: so it is never sent again, only looked up
 * (endpoint 9 by the provider's id the intent recorded, or by our external_id; the crypto status). An
 * internal transfer the provider never named cannot be looked up, and goes to review.
 */
import type { Intent } from '../intents/intent-store';
import type { PayoutRequest } from './payout-request';
import { railProviderOf } from './rails/providers';
import {
  acceptedFromCheck,
  checkIdOf,
  type CheckOutcome,
  type PayoutPaymentApi,
  type PayoutRef,
  type SubmitOutcome,
} from './rails/rail-provider';

export const SENT_BEFORE_RESET = 'sent before a reset; the provider cannot be asked';
export const CLAIMED_BEFORE_RESET =
  'claimed by an earlier run of this payout (a reset or a re-run) and not found at the provider: that run may still send it; recheck asks again, cancel once nothing can come';

function lookUp(
  payout: PayoutRequest,
  intent: Intent,
  api: PayoutPaymentApi,
): { ref: PayoutRef; found: Promise<CheckOutcome> } {
  const ref = {
    externalId: payout.externalId,
    ...(intent.providerId ? { providerTransactionId: intent.providerId } : {}),
  };
  return { ref, found: railProviderOf(payout).check(ref, api) };
}

export async function reconcileEarlierSubmission(
  payout: PayoutRequest,
  intent: Intent,
  api: PayoutPaymentApi,
): Promise<SubmitOutcome> {
  const found = await lookUp(payout, intent, api).found;
  if (found.kind === 'unknowable') return { kind: 'unknown', reason: SENT_BEFORE_RESET };
  if (found.kind === 'not-found') return { kind: 'unknown', reason: CLAIMED_BEFORE_RESET };
  return acceptedFromCheck(found, payout.amountCents);
}

/** What a check reads when the provider has no record of a payout whose send lost its answer. */
export const LOST_ANSWER_NOT_FOUND =
  "a send of this payout lost its answer and the provider has no record of it, which is no proof that it will not make it: a cancel is the operator's decision, once the provider's statement shows nothing came";

/** Not found yet after a send whose answer was lost: no proof of absence, so the caller looks again later. */
export interface OutcomeStillUnknown {
  kind: 'still-unknown';
  reason: string;
}

/** The same run's earlier attempt may have sent it: found, unknowable (review at once), or still unknown. */
export async function lookUpUnansweredSubmission(
  payout: PayoutRequest,
  intent: Intent,
  api: PayoutPaymentApi,
): Promise<SubmitOutcome | OutcomeStillUnknown> {
  const { ref, found: asked } = lookUp(payout, intent, api);
  const found = await asked;
  if (found.kind === 'found') return acceptedFromCheck(found, payout.amountCents);
  if (found.kind === 'unknowable') {
    return {
      kind: 'unknown',
      reason: `the transfer may have been made: an earlier attempt sent it and its answer was lost, and ${found.reason}`,
    };
  }
  return {
    kind: 'still-unknown',
    reason:
      `the outcome is unknown: an earlier attempt sent this payout and its answer was lost (a timeout, a lost connection or a 5xx), and the provider has no record of it under ${checkIdOf(ref)} yet. ` +
      'It may still make it, so the payout is not sent again: the provider is asked again until the submission deadline, then the payout goes to review',
  };
}
