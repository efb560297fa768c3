/**
 * Every workflow update the API sends ends here, so that each way an update can end has one defined
 * answer and none reaches the 500 handler:
 * - accepted and answered: `answered`, with the handler's result;
 * - refused by the validator, or failed by its handler: `refused`, with the workflow's reason;
 * - the workflow had closed (or closed before it took the update): `closed`;
 * - Temporal did not accept it, or the workflow did not answer it, within the deadline: a 503 with
 *   Retry-After (the update may still be answered: the same request again joins or repeats it).
 * Each service turns `refused` and `closed` into its own answer: the view, or a 409 naming its rule.
 */
import { WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError, type Client, type WorkflowUpdateHandle } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { ApiError } from './errors';
import { rethrowAsApiError } from './temporal-calls';

export type UpdateOutcome<R> = { kind: 'answered'; result: R } | { kind: 'refused'; reason: string } | { kind: 'closed' };

export interface UpdateDeadlines {
  /** For Temporal to accept (or the validator to refuse) the update: the API's call deadline. */
  acceptMs: number;
  /** For the workflow to answer it once accepted: longer when the handler waits for the provider, still bounded. */
  answerMs: number;
}

function updateNotAnswered(): ApiError {
  return new ApiError(503, 'UPDATE_NOT_ANSWERED', 'The workflow did not answer in time; the request may still take effect: send it again later');
}

function outcomeOf(error: unknown): UpdateOutcome<never> {
  if (error instanceof WorkflowUpdateFailedError) return { kind: 'refused', reason: error.cause?.message ?? error.message };
  if (error instanceof WorkflowNotFoundError) return { kind: 'closed' };
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) throw updateNotAnswered();
  return rethrowAsApiError(error);
}

/** Starts an update (`start` waits for its acceptance) and waits for its answer, each within its deadline. */
export async function sendUpdate<R>(client: Client, deadlines: UpdateDeadlines, start: () => Promise<WorkflowUpdateHandle<R>>): Promise<UpdateOutcome<R>> {
  let handle: WorkflowUpdateHandle<R>;
  try {
    handle = await client.withDeadline(Date.now() + deadlines.acceptMs, start);
  } catch (error) {
    return outcomeOf(error);
  }
  return answerOf(client, deadlines, handle);
}

/**
 * sendUpdate for a caller with another way to be heard (a signal): an update the workflow did not take within
 * `acceptMs` (its task busy with a local activity, say) is `busy` instead of a 503.
 */
export async function sendUpdateUnlessBusy<R>(client: Client, deadlines: UpdateDeadlines, start: () => Promise<WorkflowUpdateHandle<R>>): Promise<UpdateOutcome<R> | { kind: 'busy' }> {
  let handle: WorkflowUpdateHandle<R>;
  try {
    handle = await client.withDeadline(Date.now() + deadlines.acceptMs, start);
  } catch (error) {
    return error instanceof WorkflowUpdateRPCTimeoutOrCancelledError ? { kind: 'busy' } : outcomeOf(error);
  }
  return answerOf(client, deadlines, handle);
}

async function answerOf<R>(client: Client, deadlines: UpdateDeadlines, handle: WorkflowUpdateHandle<R>): Promise<UpdateOutcome<R>> {
  try {
    return { kind: 'answered', result: await client.withDeadline(Date.now() + deadlines.answerMs, () => handle.result()) };
  } catch (error) {
    return outcomeOf(error);
  }
}
