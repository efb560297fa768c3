/**
 * How a payout is indexed in visibility. The engine sets these in the start request, so a payout is
 * findable (PayoutStatus = 'RECEIVED', its flow, amount and batch) from the moment it exists, even
 * before a worker has run it, and its first workflow task writes nothing to visibility.
 */
import type { SearchAttributePair } from '@temporalio/common';
import { methodOf, type PayoutInput } from '../../src/payouts/payout-input';
import { PAYOUT_FLOWS } from '../../src/payouts/rails/methods';
import { AmountCents, BatchId, Flow, PayoutStatus } from '../../src/temporal/search-attributes';

/** The flow of a payout is its rail; inputs recorded before rails existed are PIX-key payouts. */
export function payoutFlow(input: Pick<PayoutInput, 'method'>): string {
  return PAYOUT_FLOWS[methodOf(input)];
}

export function payoutStartAttributes(input: Pick<PayoutInput, 'amountCents' | 'batchId' | 'method'>): SearchAttributePair[] {
  return [
    { key: PayoutStatus, value: 'RECEIVED' },
    { key: Flow, value: payoutFlow(input) },
    { key: AmountCents, value: input.amountCents },
    ...(input.batchId ? [{ key: BatchId, value: input.batchId }] : []),
  ];
}
