/**
 * What every operation of the engine's OpenAPI document shares: the error answers in the API's one
 * error shape, the API key and its statuses, links between operations. Each lifecycle's openapi.ts (src/api/<flow>/openapi.ts) builds its operations with these;
 * src/api/openapi-document.ts assembles them.
 */
import type { ApiKeyScope } from '../config/api-keys';
import type { LinkSpec, OperationSpec, ResponseSpec } from '../openapi/document';
import { PROBLEM_MEDIA_TYPE, problemSchema } from './errors';

export type Errors = Record<number, string>;

export function errors(descriptions: Errors): Record<number, ResponseSpec> {
  return Object.fromEntries(
    Object.entries(descriptions).map(([status, description]) => [
      status,
      { description, schema: problemSchema, contentType: PROBLEM_MEDIA_TYPE },
    ]),
  );
}

/** What every operation behind an API key may answer besides its own statuses. */
export const KEYED: Errors = {
  401: 'Missing or invalid API key',
  403: 'INSUFFICIENT_SCOPE: the API key lacks the scope this operation needs (named in detail and in WWW-Authenticate)',
  429: 'RATE_LIMITED: too many requests; retry after Retry-After',
};
export const JSON_BODY: Errors = {
  400: 'Invalid request: every refused field is named in issues[]',
  413: 'The body is too large',
  415: 'The body is not JSON',
};
export const TEMPORAL: Errors = { 503: 'Temporal unavailable or did not answer in time: retry' };
/** The refusals of a list served from the read model (src/api/list-cursor.ts). */
const LIST_QUERY: Errors = {
  400: 'Bad query: every refused parameter is named in issues[]',
  422: 'INVALID_FILTER: createdTo not after createdFrom; INVALID_CURSOR: a cursor this API did not give',
};

/** The answers of a list served from the read model: a `page`, or its query refused. */
export function listAnswers(page: ResponseSpec): Record<number, ResponseSpec> {
  return { 200: page, ...errors(LIST_QUERY) };
}

/** Links from an answer to the operations on the resource it names (`values` maps their parameters). */
export function linksTo(operationIds: readonly string[], values: Record<string, string>): Record<string, LinkSpec> {
  return Object.fromEntries(operationIds.map((operationId) => [operationId, { operationId, parameters: values }]));
}

/** The security scheme of the engine's API keys. */
export const API_KEY_SCHEME = 'apiKey';

/**
 * An operation behind an API key with `scope`: the one place its scope is declared. The document names it in the
 * operation's security requirement; the API reads it from there to check each request (src/api/auth.ts).
 */
export const keyed = (scope: ApiKeyScope, op: Omit<OperationSpec, 'security'>): OperationSpec => ({
  ...op,
  security: [{ [API_KEY_SCHEME]: [scope] }],
  responses: { ...op.responses, ...errors(KEYED) },
});

/**
 * The answers of an operation on one resource named by an id in its path: `ok` (200), or 400 when the path's `id`
 * cannot be one, 404 (`unknown`) when none has it, and the operation's own refusals (`more`).
 */
export function aboutOne(
  ok: ResponseSpec,
  id: string,
  unknown: string,
  more: Errors = {},
): Record<number, ResponseSpec> {
  return { 200: ok, ...errors({ 400: `Invalid ${id}`, 404: unknown, ...more }) };
}
