/** What a payout tells the merchant's endpoints once it is final, or in review (with why): amounts in reais, never the destination. */
import { centavosToReais } from '../../src/money/centavos';
import { chargedCents } from '../../src/payouts/charged';
import type { MerchantEventType } from '../../src/merchant-events/merchant-event';
import type { PayoutView, PayoutState } from '../../src/contracts/payout';

export const PAYOUT_EVENT_TYPES: Partial<Record<PayoutState, MerchantEventType>> = {
  COMPLETED: 'payout.completed',
  FAILED: 'payout.failed',
  CANCELLED: 'payout.cancelled',
};

export function payoutEventData(view: PayoutView, state: PayoutState): Record<string, unknown> {
  const charged = chargedCents({ ...view, state });
  return {
    object: 'payout',
    externalId: view.externalId,
    method: view.method,
    status: state,
    amount: centavosToReais(view.amountCents),
    ...(charged.feeCents === undefined ? {} : { fee: centavosToReais(charged.feeCents) }),
    ...(charged.totalCents === undefined ? {} : { total: centavosToReais(charged.totalCents) }),
    ...(view.providerTransactionId ? { providerTransactionId: view.providerTransactionId } : {}),
    ...(view.endToEndId ? { endToEndId: view.endToEndId } : {}),
    ...(view.failureReason ? { failureReason: view.failureReason } : {}),
    ...(state === 'NEEDS_REVIEW' && view.reviewReason ? { reviewReason: view.reviewReason } : {}),
    ...(view.batchId ? { batchId: view.batchId } : {}),
  };
}
