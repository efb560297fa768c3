/**
 * `/v1/payout-batches`: submit a batch as JSON or CSV, follow it, page its items, cancel, pause, resume.
 * A CSV body is parsed into the same raw items a JSON body carries, so one validation answers both.
 */
import express, { Router, type Request } from 'express';
import { z } from 'zod';
import { parseBatchCsv } from '../../batches/batch-csv';
import {
  batchItemsQuerySchema,
  batchParamsSchema,
  toBatchAccepted,
  toBatchItemsResponse,
  toBatchSummaryResponse,
} from '../../batches/batch-api-schemas';
import { batchCsvQuerySchema, batchRequestBodySchema } from '../../batches/batch-request';
import { requireApiKey } from '../auth';
import { ApiError, type ApiRowIssue, parseOrThrow } from '../errors';
import type { BatchAction, BatchService } from './batch-service';

/** 100,000 items of a few hundred bytes each. */
export const BATCH_BODY_LIMIT = '40mb';

interface BatchBody {
  batchId: string | undefined;
  items: unknown[];
  knownIssues: ApiRowIssue[];
}

function readBatchBody(req: Request): BatchBody {
  if (req.is('text/csv')) {
    const { batchId } = parseOrThrow(batchCsvQuerySchema, req.query, 'query');
    const csv = parseBatchCsv(typeof req.body === 'string' ? req.body : '');
    if (!csv.ok) throw new ApiError(400, 'VALIDATION_FAILED', 'The CSV cannot be read', csv.issues);
    return { batchId, items: csv.items, knownIssues: csv.rowIssues };
  }
  if (!req.is('application/json')) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the batch as application/json or text/csv');
  const body = parseOrThrow(batchRequestBodySchema, req.body, 'body');
  return { batchId: body.batchId, items: body.items, knownIssues: [] };
}

export function batchRoutes(service: BatchService, apiKeys: readonly string[]): Router {
  const router = Router();
  router.use(
    '/v1/payout-batches',
    requireApiKey(apiKeys),
    express.json({ limit: BATCH_BODY_LIMIT }),
    express.text({ type: 'text/csv', limit: BATCH_BODY_LIMIT }),
  );

  router.post('/v1/payout-batches', async (req, res) => {
    const { batchId, items, knownIssues } = readBatchBody(req);
    const accepted = await service.submit(items, batchId, knownIssues);
    if (!accepted.created) res.set('Idempotent-Replayed', 'true');
    res.status(202).json(toBatchAccepted(accepted.batchId, accepted.total, accepted.totalAmountCents));
  });

  router.get('/v1/payout-batches/:batchId', (req, res) => {
    const { batchId } = parseOrThrow(batchParamsSchema, req.params, 'params');
    res.json(toBatchSummaryResponse(service.summary(batchId)));
  });

  router.get('/v1/payout-batches/:batchId/items', (req, res) => {
    const { batchId } = parseOrThrow(batchParamsSchema, req.params, 'params');
    const query = parseOrThrow(batchItemsQuerySchema, req.query, 'query');
    const page = service.items(batchId, {
      limit: query.limit,
      ...(query.status ? { status: query.status } : {}),
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    });
    res.json(toBatchItemsResponse(page));
  });

  const actionSchema = z.enum(['cancel', 'pause', 'resume'] satisfies BatchAction[]);
  router.post('/v1/payout-batches/:batchId/:action', async (req, res) => {
    const { batchId } = parseOrThrow(batchParamsSchema, req.params, 'params');
    const action = actionSchema.safeParse(req.params.action);
    if (!action.success) throw new ApiError(404, 'NOT_FOUND', `No route for ${req.method} ${req.path}`);
    res.json(toBatchSummaryResponse(await service.control(batchId, action.data)));
  });

  return router;
}
