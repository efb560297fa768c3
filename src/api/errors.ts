/**
 * The engine API's one error shape: `{ code, message, issues? }`, where each issue names a field path.
 * Every failure, from bad JSON to a Temporal outage, leaves through `errorHandler` in that shape.
 */
import type { ErrorRequestHandler, Request } from 'express';
import { z } from 'zod';
import { isDatabaseUnavailable } from '../db/postgres';
import { fieldIssueSchema, rowIssueSchema, zodIssues, type FieldIssue, type RowIssue } from '../validation/issues';

export const apiErrorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  issues: z.array(fieldIssueSchema).optional(),
  rows: z.array(rowIssueSchema).optional(),
}).meta({ id: 'Problem' });
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

/**
 * A request body in the two steps of a lifecycle's create request (`payoutRequestSchema`, say: a shape, then
 * a transform): the shape, exactly what the OpenAPI document states, refused with 400 like any body; then the
 * rules no JSON Schema states (check digits, a BR Code's CRC), refused with 422 under the lifecycle's own code.
 */
export function parseShapeThenRules<Shape extends z.ZodType, Out>(
  schema: z.ZodPipe<Shape, z.ZodTransform<Out, z.output<Shape>>>,
  req: Request,
  code: string,
  message: string,
): Out {
  const shape = parseBody(schema.in, req);
  const checked = schema.out.safeParse(shape);
  if (!checked.success) throw new ApiError(422, code, message, zodIssues(checked.error));
  return checked.data;
}

/** What every 503 of the API tells the client to wait before it tries again. */
export const RETRY_AFTER_SECONDS = 5;

/** An error of Express's body parsers: a 4xx they decided, with the kind of problem in `type`. */
interface BodyParserError {
  status?: unknown;
  type?: unknown;
}

/**
 * The body parsers' refusals, each as its own 4xx. Their messages are not echoed: they quote what the
 * client sent (an unsupported charset, say), which is neither useful nor safe to reflect or log.
 */
const BODY_PARSER_REFUSALS: Record<string, { code: string; message: string }> = {
  'entity.parse.failed': { code: 'MALFORMED_JSON', message: 'The request body is not valid JSON' },
  'entity.too.large': { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' },
  'charset.unsupported': { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must be UTF-8 (charset=utf-8, or none)' },
  'encoding.unsupported': { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must not be compressed (Content-Encoding: identity)' },
  'request.aborted': { code: 'REQUEST_ABORTED', message: 'The request body ended before its announced length' },
  'request.size.invalid': { code: 'BAD_CONTENT_LENGTH', message: 'The request body does not have its announced length' },
  'parameters.too.many': { code: 'PAYLOAD_TOO_LARGE', message: 'The request body has too many parameters' },
};

/** The body parser's own 4xx as the API's error, or undefined for anything else. */
export function bodyParserRefusal(error: unknown): ApiError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, type } = error as BodyParserError;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  const known = typeof type === 'string' ? BODY_PARSER_REFUSALS[type] : undefined;
  return new ApiError(status, known?.code ?? 'BAD_REQUEST', known?.message ?? 'The request body could not be read');
}

export function errorHandler(onUnexpected: (error: unknown) => void): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const refusal = error instanceof ApiError ? error : bodyParserRefusal(error);
    if (refusal) {
      // Every 503 is temporary (Temporal, a worker, the provider, an update not answered yet): say when to come back.
      if (refusal.status === 503) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      res.status(refusal.status).json(refusal.toBody());
      return;
    }
    if (isDatabaseUnavailable(error)) {
      // The engine's own database restarting (a failover, a crash): temporary, like Temporal being away.
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      res.status(503).json(new ApiError(503, 'STORE_UNAVAILABLE', "The engine's database is unavailable; retry later").toBody());
      return;
    }
    onUnexpected(error);
    res.status(500).json(new ApiError(500, 'INTERNAL', 'Internal error').toBody());
  };
}
