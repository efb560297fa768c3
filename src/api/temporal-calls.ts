/**
 * How the API talks to Temporal: every call within a deadline, and an outage (or a call that did not
 * answer in time) as a 503 the client can retry, never a request left hanging.
 */
import { isGrpcServiceError, ServiceError, type Client } from '@temporalio/client';
import { ApiError } from './errors';

// Busy (too many updates in flight, a shard moving) is as temporary as unreachable: retry later.
const UNAVAILABLE_CODES = new Set([
  4 /* DEADLINE_EXCEEDED */, 8 /* RESOURCE_EXHAUSTED */, 10 /* ABORTED */, 14 /* UNAVAILABLE */,
]);

/** Temporal could not be reached or did not answer in time: the caller should retry later. */
export function isTemporalUnavailable(error: unknown): boolean {
  if (isGrpcServiceError(error)) return UNAVAILABLE_CODES.has(error.code);
  if (error instanceof ServiceError) return isTemporalUnavailable(error.cause);
  return false;
}

export function temporalUnavailable(): ApiError {
  return new ApiError(503, 'TEMPORAL_UNAVAILABLE', 'The workflow service is unavailable; retry later');
}

/** Rethrows Temporal outages as 503, anything else unchanged. */
export function rethrowAsApiError(error: unknown): never {
  if (isTemporalUnavailable(error)) throw temporalUnavailable();
  throw error;
}

/** Runs `call` (one or more Temporal calls) within `deadlineMs`; outages and overruns become 503. */
export function withinDeadline<T>(client: Client, deadlineMs: number, call: () => Promise<T>): Promise<T> {
  return client.withDeadline(Date.now() + deadlineMs, call).catch(rethrowAsApiError);
}
