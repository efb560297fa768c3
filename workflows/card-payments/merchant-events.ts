/**
 * What a card payment tells the merchant (its endpoints, its row in the Temporal UI): its final states, and
 * review (a person must look: with why), amounts in reais, no card data but brand and last4.
 */
import { centavosToReais } from '../../src/money/centavos';
import type { MerchantEventType } from '../../src/merchant-events/merchant-event';
import type { EventPatches } from '../shared/merchant-events';
import type { CardPaymentView, CardPaymentState } from '../../src/contracts/card-payment';

export const CARD_PAYMENT_EVENT_TYPES: Partial<Record<CardPaymentState, MerchantEventType>> = {
  PAID: 'card_payment.paid',
  FAILED: 'card_payment.failed',
  EXPIRED: 'card_payment.expired',
  NEEDS_REVIEW: 'card_payment.needs_review',
};

/** Payments recorded before review was announced replay without it. */
export const CARD_PAYMENT_EVENT_PATCHES: EventPatches = { 'card_payment.needs_review': 'card-payment-review-event' };

export function cardPaymentEventData(view: CardPaymentView, state: CardPaymentState): Record<string, unknown> {
  return {
    object: 'card_payment',
    externalId: view.externalId,
    status: state,
    amount: centavosToReais(view.amountCents),
    installmentCount: view.installmentCount,
    ...(view.brand ? { brand: view.brand } : {}),
    ...(view.last4 ? { last4: view.last4 } : {}),
    ...(view.netValueCents === undefined ? {} : { netValue: centavosToReais(view.netValueCents) }),
    ...(view.providerPaymentId === undefined ? {} : { providerPaymentId: view.providerPaymentId }),
    ...(view.failureReason ? { failureReason: view.failureReason } : {}),
    ...(state === 'NEEDS_REVIEW' && view.reviewReason ? { reviewReason: view.reviewReason } : {}),
  };
}

/** What a card payment's state means for the merchant, for the Temporal UI's current details. */
export function cardPaymentOutcome(
  state: CardPaymentState,
  details: Pick<CardPaymentView, 'failureReason' | 'reviewReason'>,
): string | undefined {
  if (state === 'PAID') return 'the buyer paid';
  if (state === 'FAILED') return `not paid: ${details.failureReason ?? 'the payment failed'}`;
  if (state === 'EXPIRED') return 'not paid: nobody paid before the checkout expired';
  if (state === 'NEEDS_REVIEW') return `an operator must look at it: ${details.reviewReason ?? 'no confirmed outcome'}`;
  return undefined;
}
