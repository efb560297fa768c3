/**
 * The engine API's errors as RFC 9457 problem details (`application/problem+json`): `type` (a URN per code),
 * `title`, `status`, `detail`, `instance` (the request's path) and the request id, with the engine's own `code`,
 * `issues` (each names a field path) and `rows` (a batch's bad rows) as extensions. Every code is in the
 * catalogue (problem-catalogue.ts); every failure, from bad JSON to a Temporal outage, leaves through
 * `errorHandler` in that shape.
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
import { z } from 'zod';
import { isDatabaseUnavailable } from '../db/postgres';
import { fieldIssueSchema, rowIssueSchema, zodIssues, type FieldIssue, type RowIssue } from '../validation/issues';
import {
  PROBLEM_CATALOGUE,
  PROBLEM_CODES,
  problemType,
  type ProblemCode,
  type ProblemCodeOf,
  type ProblemStatus,
} from './problem-catalogue';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

export const problemSchema = z
  .object({
    type: z
      .string()
      .describe('urn:payout-engine:problem:<code in kebab case>: stable, one per code (docs/problems.md)'),
    title: z.string().describe("The code's summary, the same for every occurrence"),
    status: z.number().int().describe('The HTTP status of this answer'),
    detail: z.string().describe('What went wrong in this request'),
    instance: z.string().describe("The request's path"),
    requestId: z.string().describe("The request's id, as in X-Request-Id and the engine's logs"),
    code: z.enum(PROBLEM_CODES).describe('The error code: what a client branches on'),
    message: z.string().describe('The same as detail, kept for clients of the earlier error shape'),
    issues: z.array(fieldIssueSchema).optional().describe('Every refused field, by its path'),
    rows: z.array(rowIssueSchema).optional().describe("A batch's bad rows"),
  })
  .meta({
    id: 'Problem',
    description: 'An RFC 9457 problem: every error answer of the engine API, as application/problem+json',
  });
export type Problem = z.infer<typeof problemSchema>;

/** What a client reads of a problem, tolerant of codes newer than itself. */
export const apiErrorBodySchema = problemSchema
  .pick({ message: true, issues: true, rows: true })
  .extend({ code: z.string() });
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    message: string,
    readonly issues?: FieldIssue[],
    readonly rows?: RowIssue[],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The problem as answered to `req` (its path and request id). */
  toProblem(req: Request, res: Response): Problem {
    const requestId = res.getHeader('X-Request-Id');
    return {
      type: problemType(this.code),
      title: PROBLEM_CATALOGUE[this.code].title,
      status: this.status,
      detail: this.message,
      instance: new URL(req.originalUrl, 'http://engine').pathname,
      requestId: typeof requestId === 'string' ? requestId : '',
      code: this.code,
      message: this.message,
      ...(this.issues ? { issues: this.issues } : {}),
      ...(this.rows ? { rows: this.rows } : {}),
    };
  }
}

/**
 * An error the API answers as a problem: `new ApiError(404, 'PAYOUT_NOT_FOUND', detail, issues?, rows?)`. Only a code
 * of the catalogue, with its own status, passes the type check.
 */
export const ApiError: new <C extends ProblemCode>(
  status: ProblemStatus<C>,
  code: C,
  message: string,
  issues?: FieldIssue[],
  rows?: RowIssue[],
) => ProblemError = ProblemError;
export type ApiError = ProblemError;

/** Answers `error` as a problem. */
export function sendProblem(req: Request, res: Response, error: ApiError): void {
  res
    .status(error.status)
    .type(PROBLEM_MEDIA_TYPE)
    .send(JSON.stringify(error.toProblem(req, res)));
}

/** Parses with the schema or throws a 400 listing every failing field. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'params' = 'body',
): z.output<S> {
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
 * rules no JSON Schema states (check digits, a BR Code's CRC), refused with 422 under the lifecycle's own code
 * (its title, "The payout cannot be made as requested", for the detail; the issues name each rule broken).
 */
export function parseShapeThenRules<Shape extends z.ZodType, Out>(
  schema: z.ZodPipe<Shape, z.ZodTransform<Out, z.output<Shape>>>,
  req: Request,
  code: ProblemCodeOf<422>,
): Out {
  const shape = parseBody(schema.in, req);
  const checked = schema.out.safeParse(shape);
  if (!checked.success) throw new ApiError(422, code, PROBLEM_CATALOGUE[code].title, zodIssues(checked.error));
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
const BODY_PARSER_REFUSALS: Record<string, { code: ProblemCodeOf<400 | 413 | 415>; message: string }> = {
  'entity.parse.failed': { code: 'MALFORMED_JSON', message: 'The request body is not valid JSON' },
  'entity.too.large': { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' },
  'charset.unsupported': {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'The request body must be UTF-8 (charset=utf-8, or none)',
  },
  'encoding.unsupported': {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'The request body must not be compressed (Content-Encoding: identity)',
  },
  'request.aborted': { code: 'REQUEST_ABORTED', message: 'The request body ended before its announced length' },
  'request.size.invalid': {
    code: 'BAD_CONTENT_LENGTH',
    message: 'The request body does not have its announced length',
  },
  'parameters.too.many': { code: 'PAYLOAD_TOO_LARGE', message: 'The request body has too many parameters' },
};

/** The body parser's own 4xx as the API's error, or undefined for anything else. */
export function bodyParserRefusal(error: unknown): ApiError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, type } = error as BodyParserError;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  const known = typeof type === 'string' ? BODY_PARSER_REFUSALS[type] : undefined;
  return known
    ? new ApiError(PROBLEM_CATALOGUE[known.code].status, known.code, known.message)
    : new ApiError(400, 'BAD_REQUEST', 'The request body could not be read');
}

export function errorHandler(onUnexpected: (error: unknown) => void): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const refusal = error instanceof ApiError ? error : bodyParserRefusal(error);
    if (refusal) {
      // Every 503 is temporary (Temporal, a worker, the provider, an update not answered yet): say when to come back.
      if (refusal.status === 503) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      sendProblem(req, res, refusal);
      return;
    }
    if (isDatabaseUnavailable(error)) {
      // The engine's own database restarting (a failover, a crash): temporary, like Temporal being away.
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      sendProblem(
        req,
        res,
        new ApiError(503, 'STORE_UNAVAILABLE', "The engine's database is unavailable; retry later"),
      );
      return;
    }
    onUnexpected(error);
    sendProblem(req, res, new ApiError(500, 'INTERNAL', 'Internal error'));
  };
}
