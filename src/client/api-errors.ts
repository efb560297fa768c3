/** What the engine API's clients throw: an error answer with the API's error body, or no answer at all. */
import type { ApiErrorBody } from '../api/errors';

/** The API answered with an error status; `body` is its error shape (422 of a batch: `rows`). */
export class EngineApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(`${status} ${body.code}: ${body.message}`);
    this.name = 'EngineApiError';
  }
}

/** No answer at all: the URL is wrong or the engine is down. */
export class EngineApiUnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    super(
      `cannot reach the engine API at ${url}: ${cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause)}`,
    );
    this.name = 'EngineApiUnreachableError';
  }
}
