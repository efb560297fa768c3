/** What a charge tells the merchant's endpoints: each of its final states, amounts in reais. */
import { centavosToReais } from '../../src/money/centavos';
import type { MerchantEventType } from '../../src/merchant-events/merchant-event';
import type { ChargeView, ChargeState } from '../../src/contracts/charge';

export const CHARGE_EVENT_TYPES: Partial<Record<ChargeState, MerchantEventType>> = {
  PAID: 'charge.paid',
  EXPIRED: 'charge.expired',
  FAILED: 'charge.failed',
  PARTIALLY_REFUNDED: 'charge.partially_refunded',
  REFUNDED: 'charge.refunded',
};

export function chargeEventData(view: ChargeView, state: ChargeState): Record<string, unknown> {
  const refundedCents = view.refunds.reduce((sum, refund) => sum + refund.amountCents, 0);
  return {
    object: 'charge',
    externalId: view.externalId,
    status: state,
    amount: centavosToReais(view.amountCents),
    ...(view.feeCents === undefined
      ? {}
      : { fee: centavosToReais(view.feeCents), netAmount: centavosToReais(view.amountCents - view.feeCents) }),
    ...(view.paidAt ? { paidAt: view.paidAt } : {}),
    ...(view.providerTransactionId ? { providerTransactionId: view.providerTransactionId } : {}),
    ...(view.failureReason ? { failureReason: view.failureReason } : {}),
    ...(refundedCents > 0 ? { refundedAmount: centavosToReais(refundedCents) } : {}),
  };
}
