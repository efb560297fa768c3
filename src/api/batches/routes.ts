/**
 * `/v1/payout-batches`: submit a batch as JSON or CSV, follow it, page its items, export them as CSV,
 * cancel, pause, resume. A CSV body is decoded from its bytes (UTF-8 or Windows-1252: csv-encoding.ts)
 * and parsed into the same raw items a JSON body carries, so one validation answers both, and the same
 * bounds (1 to MAX_BATCH_ITEMS items) hold for both. Both bodies are read in slices, so the server goes
 * on answering other requests while it reads a big one.
 */
import { MIMEType } from 'node:util';
import express, { Router, type Request } from 'express';
import { parseBatchCsv, type ReadBatchOptions } from '../../batches/batch-csv';
import { decodeCsvBody } from '../../batches/csv-encoding';
import { streamItemsCsv } from '../../batches/items-csv';
import { parseBatchJson } from '../../batches/batch-json';
import {
  batchItemsQuerySchema,
  batchParamsSchema,
  toBatchAccepted,
  toBatchItemsResponse,
  toBatchSummaryResponse,
} from './schemas';
import { batchCsvQuerySchema, batchRequestBodySchema, MAX_BATCH_ITEMS } from '../../batches/batch-request';
import type { RowIssue } from '../../validation/issues';
import { ApiError, parseOrThrow } from '../errors';
import { acceptBodies } from '../http-refusals';
import { answerIdempotent } from '../idempotent-answer';
import type { BatchAction, BatchService } from './service';

/** 100,000 items of a few hundred bytes each. */
export const BATCH_BODY_LIMIT = '40mb';

interface BatchBody {
  batchId: string | undefined;
  items: unknown[];
  knownIssues: RowIssue[];
}

/** A reader of the export that takes nothing for this long is cut off: the export holds a connection and a page meanwhile. */
const EXPORT_STALL_MS = 60_000;

/** One item more than a batch may hold: enough to tell that it is too big without reading the rest. */
const READ_LIMIT: ReadBatchOptions = { maxItems: MAX_BATCH_ITEMS + 1 };

function checkBatchSize(count: number, format: 'CSV' | 'JSON'): void {
  if (count === 0) {
    const what = format === 'CSV' ? 'the CSV has a header and no rows' : 'items is empty';
    throw new ApiError(422, 'BATCH_EMPTY', `A batch needs at least one item; ${what}. Nothing was stored`);
  }
  if (count > MAX_BATCH_ITEMS) {
    const what = format === 'CSV' ? 'this CSV has more rows' : 'this one has more items';
    throw new ApiError(
      413,
      'BATCH_TOO_LARGE',
      `A batch has at most ${MAX_BATCH_ITEMS.toLocaleString('en-US')} items; ${what}. Split it into several batches. Nothing was stored`,
    );
  }
}

/** The charset the request declares, if any (`text/csv; charset=windows-1252`). */
function declaredCharset(req: Request): string | undefined {
  try {
    return new MIMEType(req.get('content-type') ?? '').params.get('charset') ?? undefined;
  } catch {
    return undefined;
  }
}

async function readBatchBody(req: Request): Promise<BatchBody> {
  if (req.is('text/csv')) {
    const { batchId } = parseOrThrow(batchCsvQuerySchema, req.query, 'query');
    const decoded = await decodeCsvBody(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), declaredCharset(req));
    if (!decoded.ok)
      throw new ApiError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `The CSV cannot be decoded: ${decoded.message}. Nothing was stored`,
      );
    const csv = await parseBatchCsv(decoded.utf8, READ_LIMIT);
    if (!csv.ok) throw new ApiError(400, 'VALIDATION_FAILED', 'The CSV cannot be read', csv.issues);
    checkBatchSize(csv.items.length, 'CSV');
    return { batchId, items: csv.items, knownIssues: csv.rowIssues };
  }
  if (!req.is('application/json'))
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the batch as application/json or text/csv');
  const text = typeof req.body === 'string' ? req.body : '';
  let json: unknown;
  try {
    json = await parseBatchJson(text, READ_LIMIT);
  } catch (error) {
    if (error instanceof SyntaxError) throw new ApiError(400, 'MALFORMED_JSON', 'The request body is not valid JSON');
    throw error;
  }
  // Before the schema, which would only say "too big" or "too small" about the array.
  if (typeof json === 'object' && json !== null && 'items' in json && Array.isArray(json.items))
    checkBatchSize(json.items.length, 'JSON');
  const body = parseOrThrow(batchRequestBodySchema, json, 'body');
  return { batchId: body.batchId, items: body.items, knownIssues: [] };
}

export function batchRoutes(service: BatchService): Router {
  const router = Router();
  router.use(
    '/v1/payout-batches',
    acceptBodies(['application/json', 'text/csv']),
    // JSON as text, CSV as bytes (its encoding is read from them): parseBatchJson and parseBatchCsv read them in slices.
    express.text({ type: 'application/json', limit: BATCH_BODY_LIMIT }),
    express.raw({ type: 'text/csv', limit: BATCH_BODY_LIMIT }),
  );

  router.post('/v1/payout-batches', async (req, res) => {
    const { batchId, items, knownIssues } = await readBatchBody(req);
    const accepted = await service.submit(items, batchId, knownIssues);
    answerIdempotent(
      res,
      202,
      accepted.created,
      toBatchAccepted(accepted.batchId, accepted.total, accepted.totalAmountCents),
    );
  });

  router.get('/v1/payout-batches/:batchId', async (req, res) => {
    const { batchId } = parseOrThrow(batchParamsSchema, req.params, 'params');
    const summary = toBatchSummaryResponse(await service.summary(batchId));
    const problem = summary.done ? undefined : await service.problem(batchId);
    res.json(problem ? { ...summary, problem } : summary);
  });

  router.get('/v1/payout-batches/:batchId/items', async (req, res) => {
    const { batchId } = parseOrThrow(batchParamsSchema, req.params, 'params');
    const query = parseOrThrow(batchItemsQuerySchema, req.query, 'query');
    const page = await service.items(batchId, {
      limit: query.limit,
      ...(query.status ? { status: query.status } : {}),
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    });
    res.json(toBatchItemsResponse(page));
  });

  router.get('/v1/payout-batches/:batchId/items.csv', async (req, res) => {
    const { batchId } = parseOrThrow(batchParamsSchema, req.params, 'params');
    const pages = await service.itemPages(batchId);
    res.status(200).set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${batchId.replace(/:/g, '_')}-items.csv"`,
    });
    if (await streamItemsCsv(pages, res, { stallMs: EXPORT_STALL_MS })) res.end();
  });

  // A route per action, as the OpenAPI document has an operation (and a scope) per action.
  for (const action of ['cancel', 'pause', 'resume'] as const satisfies readonly BatchAction[]) {
    router.post(`/v1/payout-batches/:batchId/${action}`, async (req, res) => {
      const { batchId } = parseOrThrow(batchParamsSchema, req.params, 'params');
      res.json(toBatchSummaryResponse(await service.control(batchId, action)));
    });
  }

  return router;
}
