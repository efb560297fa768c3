/** What a payout tells the merchant's endpoints once it is final: amounts in reais, never the destination. */
import { centavosToReais } from '../../src/money/centavos';
import type { Announcement } from '../../src/webhooks/announce';
import type { MerchantEventType } from '../../src/webhooks/merchant-event';
import { payoutWorkflowId, type PayoutView, type PayoutState } from './messages';

export const PAYOUT_EVENT_TYPES: Partial<Record<PayoutState, MerchantEventType>> = {
  COMPLETED: 'payout.completed',
  FAILED: 'payout.failed',
  CANCELLED: 'payout.cancelled',
};

/** The announcement of a final payout; undefined for a state merchants are not told about. */
export function payoutAnnouncement(view: PayoutView): Announcement | undefined {
  const type = PAYOUT_EVENT_TYPES[view.state];
  const last = view.transitions.at(-1);
  if (!type || !last) return undefined;
  return {
    sourceId: payoutWorkflowId(view.externalId),
    seq: view.transitions.length - 1,
    type,
    occurredAt: last.at,
    data: {
      object: 'payout',
      externalId: view.externalId,
      method: view.method,
      status: view.state,
      amount: centavosToReais(view.amountCents),
      ...(view.feeCents === undefined ? {} : { fee: centavosToReais(view.feeCents) }),
      ...(view.totalCents === undefined ? {} : { total: centavosToReais(view.totalCents) }),
      ...(view.providerTransactionId ? { providerTransactionId: view.providerTransactionId } : {}),
      ...(view.failureReason ? { failureReason: view.failureReason } : {}),
      ...(view.batchId ? { batchId: view.batchId } : {}),
    },
  };
}
