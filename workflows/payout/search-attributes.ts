/**
 * How a payout is indexed in visibility. The engine sets these in the start request, so a payout is
 * findable (PayoutStatus = 'RECEIVED', its flow, amount and batch) from the moment it exists, even
 * before a worker has run it, and its first workflow task writes nothing to visibility.
 */
import type { SearchAttributePair } from '@temporalio/common';
import { AmountCents, BatchId, PayoutFlow, PayoutStatus } from '../../src/temporal/search-attributes';
import type { PayoutInput } from './messages';

export const PAYOUT_FLOW = 'pix-withdrawal';

export function payoutStartAttributes(input: Pick<PayoutInput, 'amountCents' | 'batchId'>): SearchAttributePair[] {
  return [
    { key: PayoutStatus, value: 'RECEIVED' },
    { key: PayoutFlow, value: PAYOUT_FLOW },
    { key: AmountCents, value: input.amountCents },
    ...(input.batchId ? [{ key: BatchId, value: input.batchId }] : []),
  ];
}
