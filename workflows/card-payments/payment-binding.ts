/**
 * Whether a payment the provider reports (endpoint 3) is this order's, so that another payment (someone else's, or a
 * cheaper one) cannot pay for it. Three rules, by when the payment's workflow started:
 * - before the card-payment-binding patch: only a reference that names another order refuses it;
 * - with it: the reference, the amount and the installments must be the order's, all three shown;
 * - with the card-payment-answer-binding patch (payments started now): the id itself is bound, since it comes only
 *   from the provider's own word (endpoint 2's answer, a signed callback echoing the order's reference) or an
 *   operator; endpoint 3 must then show the order's amount, and its reference and installments where it shows them
 *   (the spec does not show endpoint 3's shape).
 */
import type { CardPaymentCheck } from '../../activities/card-payment-activities';
import type { CardOrder } from '../../src/card-payments/card-payment-request';
import { centavosToReais } from '../../src/money/centavos';
import type { CardPaymentView } from '../../src/contracts/card-payment';

/** Payments recorded before the binding was checked keep the old rule on replay (reference only, when present). */
export const CARD_PAYMENT_BINDING_PATCH = 'card-payment-binding';
/** Payments recorded before the id was bound by the provider's answer keep the rules above on replay. */
export const CARD_PAYMENT_ANSWER_BINDING_PATCH = 'card-payment-answer-binding';

export type FoundPayment = Extract<CardPaymentCheck, { kind: 'found' }>;
export type BindingRule = 'reference-when-shown' | 'reference-amount-installments' | 'amount-and-what-is-shown';

const otherAmount = (found: FoundPayment, order: CardOrder): string =>
  `is of ${centavosToReais(found.amountCents)}, not the order's ${centavosToReais(order.amountCents)}`;
const otherInstallments = (count: number | undefined, order: CardOrder): string =>
  `is in ${count ?? 'an unreported number of'} installments, not the order's ${order.installmentCount}`;
const ANOTHER_ORDER = 'at the provider belongs to another order';

/** Why the provider's payment is not this order's (nothing when it is). */
export function bindingProblems(found: FoundPayment, order: CardOrder, rule: BindingRule): string[] {
  if (rule === 'reference-when-shown')
    return found.externalReference !== undefined && found.externalReference !== order.externalId ? [ANOTHER_ORDER] : [];
  const problems: string[] = [];
  if (rule === 'reference-amount-installments') {
    if (found.externalReference !== order.externalId)
      problems.push(
        found.externalReference === undefined ? 'at the provider names no order (externalReference)' : ANOTHER_ORDER,
      );
    if (found.amountCents !== order.amountCents) problems.push(otherAmount(found, order));
    if (found.installmentCount !== order.installmentCount)
      problems.push(otherInstallments(found.installmentCount, order));
    return problems;
  }
  if (found.externalReference !== undefined && found.externalReference !== order.externalId)
    problems.push(ANOTHER_ORDER);
  if (found.amountCents !== order.amountCents) problems.push(otherAmount(found, order));
  if (found.installmentCount !== undefined && found.installmentCount !== order.installmentCount)
    problems.push(otherInstallments(found.installmentCount, order));
  return problems;
}

/** What endpoint 3 adds to what the checkout and endpoint 2 said (what it did not say stays as they said it). */
export function reportedDetails(
  found: FoundPayment,
): Pick<CardPaymentView, 'brand' | 'last4' | 'netValueCents' | 'providerStatus'> {
  return {
    ...(found.brand === undefined ? {} : { brand: found.brand }),
    ...(found.last4 === undefined ? {} : { last4: found.last4 }),
    ...(found.netValueCents === undefined ? {} : { netValueCents: found.netValueCents }),
    ...(found.providerStatus ? { providerStatus: found.providerStatus } : {}),
  };
}

/** The final state endpoint 3's status settles, with its cause; undefined while the payment is still open. */
export function finalOutcome(
  found: FoundPayment,
): { state: 'PAID' | 'FAILED'; cause: string; failureReason?: string } | undefined {
  const said = found.providerStatus ? ` (${found.providerStatus})` : '';
  if (found.status === 'COMPLETED') return { state: 'PAID', cause: `payment check: COMPLETED${said}` };
  if (found.status !== 'FAILED') return undefined;
  const failureReason =
    found.providerStatus === 'DECLINED'
      ? 'declined by the card issuer'
      : `the provider reported ${found.providerStatus ?? found.status}`;
  return { state: 'FAILED', cause: `payment check: FAILED${said}`, failureReason };
}
