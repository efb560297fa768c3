/** What a finished batch tells the merchant's endpoints: how its items ended, amounts in reais. */
import { centavosToReais } from '../money/centavos';
import type { Announcement } from '../merchant-events/announce';
import type { BatchSummary } from './batch-store';

export function batchAnnouncement(batchWorkflowId: string, summary: BatchSummary, at: Date): Announcement {
  const cancelled = summary.control === 'CANCELLED';
  const counts = summary.countsByState;
  return {
    sourceId: batchWorkflowId,
    seq: 0,
    type: cancelled ? 'payout_batch.cancelled' : 'payout_batch.completed',
    occurredAt: (summary.finishedAt ?? at).toISOString(),
    data: {
      object: 'payout_batch',
      batchId: summary.batchId,
      status: cancelled ? 'CANCELLED' : 'DONE',
      total: summary.total,
      completed: counts.COMPLETED.count,
      failed: counts.FAILED.count,
      cancelled: counts.CANCELLED.count,
      needsReview: counts.NEEDS_REVIEW.count,
      totalAmount: centavosToReais(summary.totalAmountCents),
      paidAmount: centavosToReais(summary.paidAmountCents),
    },
  };
}
