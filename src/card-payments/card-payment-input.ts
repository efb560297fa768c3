/**
 * What a card payment workflow is started with. Pure: workflows import these types. No card data:
 * the card goes from the checkout page to the provider through the API process only.
 */
import type { Config } from '../config/env';
import type { CardOrder } from './card-payment-request';

/** The shape of workflows/shared/confirmed-outcome.ts's OutcomeTiming, which the card payment's wait takes. */
export interface CardPaymentTiming {
  /** How long to wait for the first callback before asking the provider. */
  callbackWaitMs: number;
  pollInitialMs: number;
  pollMaxMs: number;
  /** From the start of the wait: past this without a final answer, NEEDS_REVIEW. */
  reviewAfterMs: number;
  /** From the card's submission: past this without the provider's answer reaching the workflow, NEEDS_REVIEW. */
  authorizeDeadlineMs: number;
}

export interface CardPaymentInput {
  order: CardOrder;
  /** When the checkout stops taking a card (ISO 8601): then EXPIRED. */
  expiresAt: string;
  /** Fingerprint of the merchant's request, to tell a retry from a conflicting re-use of the id. */
  requestHash: string;
  timing: CardPaymentTiming;
}

export type CardPaymentTimingConfig = Pick<
  Config,
  | 'PAYOUT_CALLBACK_WAIT_MS'
  | 'PAYOUT_POLL_INITIAL_MS'
  | 'PAYOUT_POLL_MAX_MS'
  | 'PAYOUT_REVIEW_AFTER_MS'
  | 'CARD_AUTHORIZE_DEADLINE_MS'
>;

/** The wait for the provider's outcome is the payouts' (callback, then polling, then review). */
export function cardPaymentTiming(config: CardPaymentTimingConfig): CardPaymentTiming {
  return {
    callbackWaitMs: config.PAYOUT_CALLBACK_WAIT_MS,
    pollInitialMs: config.PAYOUT_POLL_INITIAL_MS,
    pollMaxMs: config.PAYOUT_POLL_MAX_MS,
    reviewAfterMs: config.PAYOUT_REVIEW_AFTER_MS,
    authorizeDeadlineMs: config.CARD_AUTHORIZE_DEADLINE_MS,
  };
}
