/**
 * What the batch routes answer, as zod schemas: the routes build their responses with the mappers
 * below (and their OpenAPI from the schemas), the CLI parses every answer with the same schemas.
 * Amounts are reais (JSON numbers, at most 2 places) on the wire, centavos everywhere inside.
 */
import { activityProblemSchema } from '../activity-problem';
import { z } from 'zod';
import { externalIdSchema } from '../../validation/external-id';
import { PAYOUT_METHODS } from '../../payouts/rails/methods';
import { centavosToReais } from '../../money/centavos';
import { reaisAmountSchema } from '../../money/reais-schemas';
import {
  BATCH_CONTROLS,
  ITEM_STATES,
  ITEMS_CURSOR_PATTERN,
  type BatchSummary,
  type ItemsPage,
} from '../../batches/batch-store';

export const itemStateSchema = z.enum(ITEM_STATES);
export const batchControlSchema = z.enum(BATCH_CONTROLS);
const countSchema = z.number().int().min(0);
const timestampSchema = z.iso.datetime();

export const batchParamsSchema = z.object({ batchId: externalIdSchema });

/** 202 of `POST /v1/payout-batches` (also when the same batch was submitted before). */
export const batchAcceptedSchema = z
  .object({ batchId: z.string(), total: countSchema, totalAmount: reaisAmountSchema })
  .meta({ id: 'BatchAccepted' });
export type BatchAccepted = z.infer<typeof batchAcceptedSchema>;

export const stateTotalsSchema = z.object({ count: countSchema, amount: reaisAmountSchema });

/** `GET /v1/payout-batches/:batchId` and the answer of cancel, pause and resume. */
export const batchSummarySchema = z
  .object({
    batchId: z.string(),
    total: countSchema,
    totalAmount: reaisAmountSchema,
    /** No item is PENDING or STARTED. */
    done: z.boolean(),
    control: batchControlSchema,
    createdAt: timestampSchema,
    startedAt: timestampSchema.optional(),
    finishedAt: timestampSchema.optional(),
    /** Every state, with zeros where no item is in it. */
    counts: z.record(itemStateSchema, stateTotalsSchema),
    /** Sum of the COMPLETED items' amounts. */
    paidAmount: reaisAmountSchema,
    /** Present while the batch is STALLED: the activity that keeps failing, its error, since when. */
    problem: activityProblemSchema.optional(),
  })
  .meta({ id: 'Batch' });
export type BatchSummaryResponse = z.infer<typeof batchSummarySchema>;

export const batchItemSchema = z
  .object({
    seq: z.number().int().min(1),
    externalId: z.string(),
    method: z.enum(PAYOUT_METHODS),
    amount: reaisAmountSchema,
    status: itemStateSchema,
    fee: reaisAmountSchema.optional(),
    failureReason: z.string().optional(),
  })
  .meta({ id: 'BatchItem' });
export type BatchItemResponse = z.infer<typeof batchItemSchema>;

/** `GET /v1/payout-batches/:batchId/items`. */
export const batchItemsResponseSchema = z.object({
  items: z.array(batchItemSchema),
  nextCursor: z.string().optional(),
});
export type BatchItemsResponse = z.infer<typeof batchItemsResponseSchema>;

export const MAX_ITEMS_PAGE = 1_000;

/** `?status=&cursor=&limit=` of the items route; a cursor is only ever one a previous page gave. */
export const batchItemsQuerySchema = z
  .object({
    status: itemStateSchema.optional(),
    cursor: z.string().regex(ITEMS_CURSOR_PATTERN, 'cursor must be the nextCursor of a previous page').optional(),
    limit: z.coerce.number().int().min(1).max(MAX_ITEMS_PAGE).default(100),
  })
  .strict();

export function toBatchAccepted(batchId: string, total: number, totalAmountCents: number): BatchAccepted {
  return { batchId, total, totalAmount: centavosToReais(totalAmountCents) };
}

export function toBatchSummaryResponse(summary: BatchSummary): BatchSummaryResponse {
  const counts = Object.fromEntries(
    ITEM_STATES.map((state) => [
      state,
      { count: summary.countsByState[state].count, amount: centavosToReais(summary.countsByState[state].amountCents) },
    ]),
  ) as BatchSummaryResponse['counts'];
  return {
    batchId: summary.batchId,
    total: summary.total,
    totalAmount: centavosToReais(summary.totalAmountCents),
    done: summary.done,
    control: summary.control,
    createdAt: summary.createdAt.toISOString(),
    ...(summary.startedAt ? { startedAt: summary.startedAt.toISOString() } : {}),
    ...(summary.finishedAt ? { finishedAt: summary.finishedAt.toISOString() } : {}),
    counts,
    paidAmount: centavosToReais(summary.paidAmountCents),
  };
}

export function toBatchItemsResponse(page: ItemsPage): BatchItemsResponse {
  return {
    items: page.items.map((item) => ({
      seq: item.seq,
      externalId: item.externalId,
      method: item.method,
      amount: centavosToReais(item.amountCents),
      status: item.state,
      ...(item.feeCents === undefined ? {} : { fee: centavosToReais(item.feeCents) }),
      ...(item.failureReason === undefined ? {} : { failureReason: item.failureReason }),
    })),
    ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
  };
}
