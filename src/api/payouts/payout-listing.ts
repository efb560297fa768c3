/**
 * The payouts as the read model has them (src/read-model): a filtered list newest first, paged by an opaque
 * cursor; the counts and sums of the days of a time zone; a payout's events. Temporal is not asked: these
 * answer while it is away, and after it has forgotten a payout.
 */
import type { z } from 'zod';
import { payoutWorkflowId } from '../../lifecycles/payout-client';
import type { ReadModel } from '../../read-model/read-model';
import { isTimeZone, nextDay, startOfDay } from '../../read-model/zone-days';
import { ApiError } from '../errors';
import { encodeCursor, invalidFilter, pageWindow } from '../list-cursor';
import {
  MAX_SUMMARY_DAYS,
  payoutEventsResponse,
  payoutListItem,
  payoutSummaryResponse,
  type payoutEventsResponseSchema,
  type payoutListQuerySchema,
  type payoutListResponseSchema,
  type payoutSummaryQuerySchema,
  type payoutSummaryResponseSchema,
} from './list-schemas';

/** The instants of the days from..to in the zone: [start of from, start of the day after to). */
function summaryRange(query: z.output<typeof payoutSummaryQuerySchema>): { from: Date; to: Date } {
  if (!isTimeZone(query.timeZone))
    throw invalidFilter('timeZone', 'must be an IANA time zone the engine knows, e.g. America/Sao_Paulo');
  const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000;
  if (days < 0) throw invalidFilter('to', 'must be on or after from');
  if (days >= MAX_SUMMARY_DAYS)
    throw invalidFilter('to', `must be at most ${MAX_SUMMARY_DAYS} days from from, both included`);
  return { from: startOfDay(query.from, query.timeZone), to: startOfDay(nextDay(query.to), query.timeZone) };
}

export class PayoutListing {
  constructor(private readonly readModel: ReadModel) {}

  async list(query: z.output<typeof payoutListQuerySchema>): Promise<z.infer<typeof payoutListResponseSchema>> {
    const { after, ...window } = pageWindow(query);
    const page = await this.readModel.listPayouts({
      ...window,
      ...(query.status ? { status: query.status } : {}),
      ...(query.method ? { method: query.method } : {}),
      ...(query.batchId ? { batchId: query.batchId } : {}),
      ...(after ? { after: { createdAt: after.createdAt, externalId: after.id } } : {}),
    });
    const next = page.next
      ? { nextCursor: encodeCursor({ createdAt: page.next.createdAt, id: page.next.externalId }) }
      : {};
    return { data: page.payouts.map(payoutListItem), ...next };
  }

  async summary(
    query: z.output<typeof payoutSummaryQuerySchema>,
  ): Promise<z.infer<typeof payoutSummaryResponseSchema>> {
    const range = summaryRange(query);
    return payoutSummaryResponse(query, range, await this.readModel.payoutTotals(range.from, range.to));
  }

  async events(externalId: string): Promise<z.infer<typeof payoutEventsResponseSchema>> {
    const events = await this.readModel.eventsOf(payoutWorkflowId(externalId));
    if (events.length === 0 && !(await this.readModel.findPayout(externalId)))
      throw new ApiError(404, 'PAYOUT_NOT_FOUND', `No payout with externalId ${externalId}`);
    return payoutEventsResponse(events);
  }
}
