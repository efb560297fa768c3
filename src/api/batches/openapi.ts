/** The payout batch operations of the engine's OpenAPI document. */
import { z } from 'zod';
import { MAX_BATCH_ITEMS } from '../../batches/batch-request';
import { withParamExamples, withRequestExamples, type OperationSpec } from '../../openapi/document';
import { externalIdSchema } from '../../validation/external-id';
import { payoutShapeSchema } from '../../payouts/payout-request';
import { aboutOne, errors, JSON_BODY, keyed, linksTo, TEMPORAL } from '../openapi-helpers';
import {
  batchAcceptedSchema,
  batchItemsQuerySchema,
  batchItemsResponseSchema,
  batchParamsSchema,
  batchSummarySchema,
} from './schemas';

/**
 * The batch body as the API reads it: every item a payout's fields. The route itself takes `items` as
 * any array and checks each item on its own, so that a bad batch is answered with every bad row
 * named (422 with rows[]), not with the first problem (400).
 */
const batchRequestDocument = z
  .object({ batchId: externalIdSchema.optional(), items: z.array(payoutShapeSchema).min(1).max(MAX_BATCH_ITEMS) })
  .strict();

/** The documentation's example: the examples phase of `npm run fuzz` sends it, so reads find a real batch. */
const exampleBatch = {
  batchId: 'march-sellers',
  items: [
    { externalId: 's-1', amount: 25, pixKey: '52998224725', keyType: 'CPF' },
    { externalId: 's-2', amount: 80.5, pixKey: 'ana@example.com', keyType: 'EMAIL', description: 'March' },
  ],
};
const batchBody = withRequestExamples(batchRequestDocument, [exampleBatch]);
const batchParams = withParamExamples(batchParamsSchema, exampleBatch);

const BATCH_ACTIONS = ['cancel', 'pause', 'resume'] as const;
const batchActionId = (action: (typeof BATCH_ACTIONS)[number]): string => `${action}Batch`;
const BATCH_ACTION_DESCRIPTIONS: Record<(typeof BATCH_ACTIONS)[number], string> = {
  cancel:
    'Operators: items not yet started are CANCELLED and never sent; items already at the provider finish as they will. Cancelling a cancelled batch answers it as it is.',
  pause: 'Operators: no further item is started until the batch is resumed; items already started finish as they will.',
  resume: 'Operators: a paused batch starts its remaining items again.',
};

const batchActions: OperationSpec[] = BATCH_ACTIONS.map((action) =>
  keyed('operator', {
    id: batchActionId(action),
    method: 'post',
    path: `/v1/payout-batches/:batchId/${action}`,
    summary: `${action[0]?.toUpperCase()}${action.slice(1)} the batch: items not yet started are affected, started ones go on`,
    description: BATCH_ACTION_DESCRIPTIONS[action],
    params: batchParams,
    responses: aboutOne(
      { description: 'The batch after the request', schema: batchSummarySchema },
      'batchId',
      'Unknown batch',
      { 409: 'Already finished or cancelled', ...TEMPORAL },
    ),
  }),
);

export const batchOperations: OperationSpec[] = [
  keyed('payouts:write', {
    id: 'submitBatch',
    method: 'post',
    path: '/v1/payout-batches',
    body: batchBody,
    summary: 'Submit a batch of payouts',
    description:
      'As JSON (each item a payout of any method), or as text/csv with a header row and the batch id in ?batchId=: externalId and amount, then the columns of the rails used (method, pixKey, keyType, emv, email, wallet, network, description); an empty cell is a field not given. ' +
      'The CSV is separated by "," (amounts 25.50) or, as Excel pt-BR saves it, by ";" (amounts 25,50 or 1.234,56), whichever its header uses; its encoding is the declared charset (utf-8, windows-1252, iso-8859-1), or without one UTF-8 (with or without BOM) when the bytes are UTF-8 and Windows-1252 otherwise.',
    responses: {
      202: {
        description: 'Accepted, or the existing batch for a repeated identical request',
        schema: batchAcceptedSchema,
        links: linksTo(['getBatch', 'listBatchItems', 'exportBatchItems', ...BATCH_ACTIONS.map(batchActionId)], {
          batchId: '$response.body#/batchId',
        }),
      },
      ...errors({
        ...JSON_BODY,
        415: 'Neither JSON nor CSV, or a CSV whose bytes do not fit its declared charset, or are neither UTF-8 nor Windows-1252 (UTF-16, NUL bytes): the message names the line and the charset to declare',
        409: 'A different batch has this batchId',
        413: 'More than 100,000 items or CSV rows, or a body over 40 MB; nothing stored',
        422: 'No items (a CSV with only its header), or bad rows, each named in rows[] (a bad field, a pixKey that does not fit its keyType, an externalId repeated or already used; RAIL_NOT_AVAILABLE: a rail that is off, crypto without its provider route); nothing started',
        503: 'Temporal unavailable or did not answer in time, or storing the batch was interrupted: send the same request again',
      }),
    },
  }),
  keyed('read', {
    id: 'getBatch',
    description:
      "The batch's totals by state (count and amount), whether every item is final, and when it was created, started and finished.",
    method: 'get',
    path: '/v1/payout-batches/:batchId',
    summary: 'Totals by state (count and amount), done flag, start and end times',
    params: batchParams,
    responses: aboutOne({ description: 'The batch', schema: batchSummarySchema }, 'batchId', 'Unknown batch'),
  }),
  keyed('read', {
    id: 'listBatchItems',
    description:
      "A page of the batch's items in seq order, each with its payout's state, amount, fee and failure reason; filter by state, page with cursor.",
    method: 'get',
    path: '/v1/payout-batches/:batchId/items',
    summary: 'The items with their states, paged',
    params: batchParams,
    query: batchItemsQuerySchema,
    responses: {
      200: { description: 'A page of items', schema: batchItemsResponseSchema },
      ...errors({ 400: 'Invalid batchId or query', 404: 'Unknown batch' }),
    },
  }),
  keyed('read', {
    id: 'exportBatchItems',
    method: 'get',
    path: '/v1/payout-batches/:batchId/items.csv',
    params: batchParams,
    summary: "Every item's outcome as a CSV that Excel pt-BR opens as it is",
    description:
      'UTF-8 with a byte order mark, ";" between cells, amounts with a decimal comma, CRLF line ends; the columns seq, externalId, method, amount, status, fee, failureReason, one row per item in seq order (no destination, no description). ' +
      'Streamed page by page; each item as it stood when its page was read. A cell a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a CR) starts with a quote.',
    responses: aboutOne({ description: 'The items as CSV', contentType: 'text/csv' }, 'batchId', 'Unknown batch'),
  }),
  ...batchActions,
];
