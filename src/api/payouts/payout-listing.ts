/**
 * The payouts as the read model has them (src/read-model): a filtered list newest first, paged by an opaque
 * cursor; the counts and sums of the days of a time zone; a payout's events. Temporal is not asked: these
 * answer while it is away, and after it has forgotten a payout.
 */
import { z } from 'zod';
import { payoutWorkflowId } from '../../lifecycles/payout-client';
import type { PayoutPosition, ReadModel } from '../../read-model/read-model';
import { isTimeZone, nextDay, startOfDay } from '../../read-model/zone-days';
import { ApiError } from '../errors';
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

/** A cursor is the last row's place, [createdAt in ms, externalId], as base64url JSON. */
const positionSchema = z.tuple([z.number().int().nonnegative(), z.string().min(1).max(64)]);

function encodeCursor(position: PayoutPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.getTime(), position.externalId])).toString('base64url');
}

function decodeCursor(cursor: string): PayoutPosition {
  let parsed: z.ZodSafeParseResult<[number, string]>;
  try {
    parsed = positionSchema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    parsed = positionSchema.safeParse(undefined);
  }
  if (!parsed.success) throw new ApiError(422, 'INVALID_CURSOR', 'The cursor is not one this API gave', [{ path: 'cursor', message: 'must be the nextCursor of a previous page' }]);
  return { createdAt: new Date(parsed.data[0]), externalId: parsed.data[1] };
}

function invalidFilter(path: string, message: string): ApiError {
  return new ApiError(422, 'INVALID_FILTER', `${path} ${message}`, [{ path, message }]);
}

/** The instants of the days from..to in the zone: [start of from, start of the day after to). */
function summaryRange(query: z.output<typeof payoutSummaryQuerySchema>): { from: Date; to: Date } {
  if (!isTimeZone(query.timeZone)) throw invalidFilter('timeZone', 'must be an IANA time zone the engine knows, e.g. America/Sao_Paulo');
  const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000;
  if (days < 0) throw invalidFilter('to', 'must be on or after from');
  if (days >= MAX_SUMMARY_DAYS) throw invalidFilter('to', `must be at most ${MAX_SUMMARY_DAYS} days from from, both included`);
  return { from: startOfDay(query.from, query.timeZone), to: startOfDay(nextDay(query.to), query.timeZone) };
}

export class PayoutListing {
  constructor(private readonly readModel: ReadModel) {}

  async list(query: z.output<typeof payoutListQuerySchema>): Promise<z.infer<typeof payoutListResponseSchema>> {
    if (query.createdFrom && query.createdTo && Date.parse(query.createdFrom) >= Date.parse(query.createdTo)) throw invalidFilter('createdTo', 'must be after createdFrom');
    const page = await this.readModel.listPayouts({
      limit: query.limit,
      ...(query.status ? { status: query.status } : {}),
      ...(query.method ? { method: query.method } : {}),
      ...(query.batchId ? { batchId: query.batchId } : {}),
      ...(query.createdFrom ? { createdFrom: new Date(query.createdFrom) } : {}),
      ...(query.createdTo ? { createdTo: new Date(query.createdTo) } : {}),
      ...(query.cursor ? { after: decodeCursor(query.cursor) } : {}),
    });
    return { data: page.payouts.map(payoutListItem), ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}) };
  }

  async summary(query: z.output<typeof payoutSummaryQuerySchema>): Promise<z.infer<typeof payoutSummaryResponseSchema>> {
    const range = summaryRange(query);
    return payoutSummaryResponse(query, range, await this.readModel.payoutTotals(range.from, range.to));
  }

  async events(externalId: string): Promise<z.infer<typeof payoutEventsResponseSchema>> {
    const events = await this.readModel.eventsOf(payoutWorkflowId(externalId));
    if (events.length === 0 && !(await this.readModel.findPayout(externalId))) throw new ApiError(404, 'PAYOUT_NOT_FOUND', `No payout with externalId ${externalId}`);
    return payoutEventsResponse(events);
  }
}
