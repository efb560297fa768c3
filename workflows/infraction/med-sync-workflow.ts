/**
 * One run of the MED sync, started by the Schedule `med-sync`: every page of the provider's infraction
 * list, each infraction's workflow brought up to date. A run that fails part-way is simply retried by the
 * next one: starting and signalling are idempotent (one workflow per infraction id, ever).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { InfractionActivities, SyncedPage } from '../../activities/infraction-activities';

const { syncInfractionPage } = proxyActivities<InfractionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 },
});

export interface MedSyncInput {
  perPage: number;
}

export type MedSyncSummary = Omit<SyncedPage, 'totalPages'> & { pages: number };

export async function medSyncWorkflow(input: MedSyncInput): Promise<MedSyncSummary> {
  const summary: MedSyncSummary = { pages: 0, seen: 0, started: 0, signalled: 0 };
  let totalPages = 1;
  for (let page = 1; page <= totalPages; page += 1) {
    const synced = await syncInfractionPage(page, input.perPage);
    totalPages = synced.totalPages;
    summary.pages += 1;
    summary.seen += synced.seen;
    summary.started += synced.started;
    summary.signalled += synced.signalled;
  }
  return summary;
}
