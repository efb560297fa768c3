/**
 * The payout list, its day summary and a payout's events, served from the read model: what the routes take
 * (queries) and what they answer, amounts in reais (converted from integer centavos at the edge).
 */
import { z } from 'zod';
import { listPageSchema } from '../lifecycle-view';
import { listPageQueryShape } from '../list-cursor';
import { timestampSchema } from '../openapi-timestamps';
import { centavosToReais } from '../../money/centavos';
import { PAYOUT_STATES } from '../../payouts/payout-state';
import { PAYOUT_METHODS } from '../../payouts/rails/methods';
import { externalIdSchema } from '../../validation/external-id';
import type { PayoutTotals, StoredEvent, StoredPayout } from '../../read-model/read-model';

/** At most a year of days in one summary: one query, bounded. */
export const MAX_SUMMARY_DAYS = 366;

/**
 * The shapes of the queries (a violation is a 400 naming each parameter). What a shape cannot say (createdTo
 * after createdFrom, a zone the time zone database knows, a cursor this API gave) is checked by
 * PayoutListing, a 422 naming the parameter: the OpenAPI document states exactly these shapes.
 */
export const payoutListQuerySchema = z.strictObject({
  status: z.enum(PAYOUT_STATES).optional(),
  method: z.enum(PAYOUT_METHODS).optional(),
  batchId: externalIdSchema.optional(),
  ...listPageQueryShape,
});

const day = z.iso.date();

export const payoutSummaryQuerySchema = z.strictObject({
  from: day.describe('First day (YYYY-MM-DD) in timeZone'),
  to: day.describe(
    `Last day (YYYY-MM-DD) in timeZone, included: on or after from, at most ${MAX_SUMMARY_DAYS} days in all`,
  ),
  timeZone: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/, 'must be an IANA time zone, e.g. America/Sao_Paulo')
    .max(64)
    .default('America/Sao_Paulo')
    .describe('IANA time zone whose days are summed'),
});

export const payoutListItemSchema = z
  .object({
    externalId: z.string(),
    method: z.enum(PAYOUT_METHODS),
    status: z.enum(PAYOUT_STATES),
    amount: z.number(),
    fee: z.number().optional(),
    total: z.number().optional(),
    batchId: z.string().optional(),
    keyType: z.string().optional(),
    pixKey: z.string().optional().describe('The PIX key it was sent to, masked'),
    providerTransactionId: z.string().optional(),
    failureReason: z.string().optional(),
    reviewReason: z.string().optional(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'PayoutListItem' });

export const payoutListResponseSchema = listPageSchema(payoutListItemSchema, 'PayoutList');

const totalsSchema = z.object({ count: z.number().int(), amount: z.number(), fee: z.number() });

export const payoutSummaryResponseSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    timeZone: z.string(),
    createdFrom: z.string().describe('The first instant summed'),
    createdTo: z.string().describe('The first instant after the last day'),
    total: totalsSchema,
    byStatus: z.array(totalsSchema.extend({ status: z.enum(PAYOUT_STATES) })),
    byMethod: z.array(totalsSchema.extend({ method: z.enum(PAYOUT_METHODS) })),
    byStatusAndMethod: z.array(totalsSchema.extend({ status: z.enum(PAYOUT_STATES), method: z.enum(PAYOUT_METHODS) })),
  })
  .meta({ id: 'PayoutSummary' });

export const payoutEventsResponseSchema = z
  .object({
    data: z.array(
      z.object({
        id: z.string(),
        type: z.string(),
        createdAt: timestampSchema,
        data: z.record(z.string(), z.unknown()),
      }),
    ),
  })
  .meta({ id: 'PayoutEvents' });

export function payoutListItem({
  view,
  keyType,
  destination,
  createdAt,
  updatedAt,
}: StoredPayout): z.infer<typeof payoutListItemSchema> {
  return {
    externalId: view.externalId,
    method: view.method,
    status: view.state,
    amount: centavosToReais(view.amountCents),
    ...(view.feeCents === undefined ? {} : { fee: centavosToReais(view.feeCents) }),
    ...(view.totalCents === undefined ? {} : { total: centavosToReais(view.totalCents) }),
    ...(view.batchId ? { batchId: view.batchId } : {}),
    ...(keyType ? { keyType } : {}),
    ...(destination ? { pixKey: destination } : {}),
    ...(view.providerTransactionId ? { providerTransactionId: view.providerTransactionId } : {}),
    ...(view.failureReason ? { failureReason: view.failureReason } : {}),
    ...(view.reviewReason ? { reviewReason: view.reviewReason } : {}),
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

type Totals = z.infer<typeof totalsSchema>;

/** Sums in centavos, each converted once at the end. */
function totalsOf(rows: readonly PayoutTotals[]): Totals {
  const sum = rows.reduce(
    (acc, row) => ({
      count: acc.count + row.count,
      amountCents: acc.amountCents + row.amountCents,
      feeCents: acc.feeCents + row.feeCents,
    }),
    { count: 0, amountCents: 0, feeCents: 0 },
  );
  return { count: sum.count, amount: centavosToReais(sum.amountCents), fee: centavosToReais(sum.feeCents) };
}

function grouped<K extends 'status' | 'method'>(
  rows: readonly PayoutTotals[],
  key: K,
): (Totals & Record<K, PayoutTotals[K]>)[] {
  const keys = [...new Set(rows.map((row) => row[key]))];
  return keys.map(
    (value) =>
      ({ [key]: value, ...totalsOf(rows.filter((row) => row[key] === value)) }) as Totals & Record<K, PayoutTotals[K]>,
  );
}

export function payoutSummaryResponse(
  query: { from: string; to: string; timeZone: string },
  range: { from: Date; to: Date },
  rows: readonly PayoutTotals[],
): z.infer<typeof payoutSummaryResponseSchema> {
  return {
    ...query,
    createdFrom: range.from.toISOString(),
    createdTo: range.to.toISOString(),
    total: totalsOf(rows),
    byStatus: grouped(rows, 'status'),
    byMethod: grouped(rows, 'method'),
    byStatusAndMethod: rows.map((row) => ({ status: row.status, method: row.method, ...totalsOf([row]) })),
  };
}

export function payoutEventsResponse(events: readonly StoredEvent[]): z.infer<typeof payoutEventsResponseSchema> {
  return {
    data: events.map((event) => ({ id: event.id, type: event.type, createdAt: event.occurredAt, data: event.data })),
  };
}
