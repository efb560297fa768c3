/**
 * The request id of the work in progress: set per API request (src/api/request-logging.ts) and per
 * activity execution (src/worker/activity-interceptors.ts). The logger stamps it on every line, and
 * the Temporal client puts it on the workflows it starts, so an activity's logs name the API request
 * that started its workflow.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Request ids the engine accepts from a caller's X-Request-Id; anything else is replaced by a fresh one. */
export const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

/**
 * An id an outsider sent (a header, say) when it is a plain token like a request id; otherwise
 * undefined. What reaches a logger or a store from outside is checked by this first.
 */
export function plainId(value: string | undefined): string | undefined {
  return value !== undefined && REQUEST_ID_PATTERN.test(value) ? value : undefined;
}

export interface RequestContext {
  requestId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
