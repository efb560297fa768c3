/**
 * The engine API's one error shape: `{ code, message, issues? }`, where each issue names a field path.
 * Every failure, from bad JSON to a Temporal outage, leaves through `errorHandler` in that shape.
 */
import type { ErrorRequestHandler, Request } from 'express';
import { z } from 'zod';
import { fieldIssueSchema, rowIssueSchema, zodIssues, type FieldIssue, type RowIssue } from '../validation/issues';

export const apiErrorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  issues: z.array(fieldIssueSchema).optional(),
  rows: z.array(rowIssueSchema).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: FieldIssue[],
    readonly rows?: RowIssue[],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ApiErrorBody {
    return { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}), ...(this.rows ? { rows: this.rows } : {}) };
  }
}

/** Parses with the schema or throws a 400 listing every failing field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'params' = 'body'): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ApiError(400, 'VALIDATION_FAILED', `The request ${where} is invalid`, zodIssues(result.error));
  }
  return result.data;
}

export function parseBody<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return parseOrThrow(schema, req.body, 'body');
}

/** What every 503 of the API tells the client to wait before it tries again. */
export const RETRY_AFTER_SECONDS = 5;

interface HttpErrorLike {
  status?: number;
  type?: string;
}

export function errorHandler(onUnexpected: (error: unknown) => void): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof ApiError) {
      // Every 503 is temporary (Temporal, a worker, the provider, an update not answered yet): say when to come back.
      if (error.status === 503) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      res.status(error.status).json(error.toBody());
      return;
    }
    const http = error as HttpErrorLike;
    if (http.type === 'entity.parse.failed') {
      res.status(400).json(new ApiError(400, 'MALFORMED_JSON', 'The request body is not valid JSON').toBody());
      return;
    }
    if (http.type === 'entity.too.large') {
      res.status(413).json(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large').toBody());
      return;
    }
    onUnexpected(error);
    res.status(500).json(new ApiError(500, 'INTERNAL', 'Internal error').toBody());
  };
}
