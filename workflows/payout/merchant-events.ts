/** What a payout tells the merchant's endpoints once it is final: amounts in reais, never the destination. */
import { centavosToReais } from '../../src/money/centavos';
import type { MerchantEventType } from '../../src/webhooks/merchant-event';
import type { PayoutView, PayoutState } from './messages';

export const PAYOUT_EVENT_TYPES: Partial<Record<PayoutState, MerchantEventType>> = {
  COMPLETED: 'payout.completed',
  FAILED: 'payout.failed',
  CANCELLED: 'payout.cancelled',
};

export function payoutEventData(view: PayoutView, state: PayoutState): Record<string, unknown> {
  return {
    object: 'payout',
    externalId: view.externalId,
    method: view.method,
    status: state,
    amount: centavosToReais(view.amountCents),
    ...(view.feeCents === undefined ? {} : { fee: centavosToReais(view.feeCents) }),
    ...(view.totalCents === undefined ? {} : { total: centavosToReais(view.totalCents) }),
    ...(view.providerTransactionId ? { providerTransactionId: view.providerTransactionId } : {}),
    ...(view.failureReason ? { failureReason: view.failureReason } : {}),
    ...(view.batchId ? { batchId: view.batchId } : {}),
  };
}
