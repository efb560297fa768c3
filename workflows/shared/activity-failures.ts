/** How a failed activity reads in a workflow: the provider's or the engine's own words, and the failure's type. */
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

export function failureMessage(error: unknown): string {
  if (error instanceof ActivityFailure && error.cause) return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}

export function failureType(error: unknown): string | undefined {
  return error instanceof ActivityFailure && error.cause instanceof ApplicationFailure ? (error.cause.type ?? undefined) : undefined;
}
