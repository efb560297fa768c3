/**
 * How a failed activity reads in a workflow: the provider's or the engine's own words, and the failure's type.
 * A remote or local activity's failure arrives wrapped in an ActivityFailure whose cause is what the activity threw
 * (SDK 1.24; the batch's STALLED test sees a local one so); anything else is read as it is.
 */
import { ActivityFailure, ApplicationFailure, isCancellation } from '@temporalio/workflow';

function unwrapped(error: unknown): unknown {
  return error instanceof ActivityFailure ? error.cause : error;
}

export function failureMessage(error: unknown): string {
  if (error instanceof ActivityFailure && error.cause) return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}

export function failureType(error: unknown): string | undefined {
  const failure = unwrapped(error);
  return failure instanceof ApplicationFailure ? (failure.type ?? undefined) : undefined;
}

/** Another attempt may cure it: neither a cancellation nor a failure its activity marked final (a Conflict, say). */
export function retryableFailure(error: unknown): boolean {
  if (isCancellation(error)) return false;
  const failure = unwrapped(error);
  return !(failure instanceof ApplicationFailure && failure.nonRetryable);
}
