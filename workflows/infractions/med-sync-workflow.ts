/**
 * One run of the MED sync, started by the Schedule `med-sync`: every page of the provider's infraction
 * list, each infraction's workflow brought up to date. A run that fails part-way is simply retried by the
 * next one: starting and signalling are idempotent (one workflow per infraction id, ever). Pages are read
 * until one is empty or shorter than the longest before it, whatever page size the provider applies.
 */
import { patched, proxyActivities } from '@temporalio/workflow';
import type { InfractionActivities, SyncedPage } from '../../activities/infraction-activities';
import type { MedSyncInput } from '../../src/contracts/infraction';

const { syncInfractionPage } = proxyActivities<InfractionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 },
});

export type MedSyncSummary = Omit<SyncedPage, 'totalPages' | 'size' | 'unreadable' | 'reviews' | 'problems'> &
  Partial<Pick<SyncedPage, 'unreadable' | 'reviews' | 'problems'>> & { pages: number };

/** Marks runs that tell each page the longest page before it, and stop at MAX_PAGES. */
const FOLLOW_PAGES_PATCH = 'med-sync-follows-pages';
/** A provider that answers the same full page whatever page is asked would be read forever. */
const MAX_PAGES = 1_000;
const MAX_PROBLEMS = 10;

export async function medSyncWorkflow(input: MedSyncInput): Promise<MedSyncSummary> {
  const summary: MedSyncSummary = { pages: 0, seen: 0, started: 0, signalled: 0 };
  const follows = patched(FOLLOW_PAGES_PATCH);
  let totalPages = 1;
  let longest: number | undefined;
  for (let page = 1; page <= totalPages && (!follows || page <= MAX_PAGES); page += 1) {
    const synced = follows
      ? await syncInfractionPage(page, input.perPage, longest)
      : await syncInfractionPage(page, input.perPage);
    totalPages = synced.totalPages;
    summary.pages += 1;
    summary.seen += synced.seen;
    summary.started += synced.started;
    summary.signalled += synced.signalled;
    if (!follows) continue;
    longest = Math.max(longest ?? 0, synced.size);
    summary.unreadable = (summary.unreadable ?? 0) + synced.unreadable;
    summary.reviews = (summary.reviews ?? 0) + synced.reviews;
    summary.problems = [...(summary.problems ?? []), ...synced.problems].slice(0, MAX_PROBLEMS);
  }
  return summary;
}
