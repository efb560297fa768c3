/**
 * Every workflow update the API sends ends here, so that each way an update can end has one defined
 * answer and none reaches the 500 handler:
 * - accepted and answered: `answered`, with the handler's result;
 * - refused by the validator, or failed by its handler: `refused`, with the workflow's reason;
 * - the workflow had closed (or closed before it took the update): `closed`;
 * - Temporal did not accept it, or the workflow did not answer it, within the deadline: a 503 with
 *   Retry-After (the update may still be answered: the same request again joins or repeats it);
 * - the workflow task that took it failed (it completed the workflow as a signal arrived, say): nothing of the
 *   update was kept, so it is sent again, a bounded number of times.
 * Each service turns `refused` and `closed` into its own answer: the view, or a 409 naming its rule.
 */
import {
  isGrpcServiceError,
  ServiceError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
  type WorkflowUpdateHandle,
} from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { ApiError } from './errors';
import { rethrowAsApiError } from './temporal-calls';

export type UpdateOutcome<R> =
  { kind: 'answered'; result: R } | { kind: 'refused'; reason: string } | { kind: 'closed' };

export interface UpdateDeadlines {
  /** For Temporal to accept (or the validator to refuse) the update: the API's call deadline. */
  acceptMs: number;
  /** For the workflow to answer it once accepted: longer when the handler waits for the provider, still bounded. */
  answerMs: number;
}

function updateNotAnswered(): ApiError {
  return new ApiError(
    503,
    'UPDATE_NOT_ANSWERED',
    'The workflow did not answer in time; the request may still take effect: send it again later',
  );
}

function outcomeOf(error: unknown): UpdateOutcome<never> {
  if (error instanceof WorkflowUpdateFailedError)
    return { kind: 'refused', reason: error.cause?.message ?? error.message };
  if (error instanceof WorkflowNotFoundError) return { kind: 'closed' };
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) throw updateNotAnswered();
  return rethrowAsApiError(error);
}

const LOST_WITH_ITS_TASK_CODES = new Set([9 /* FAILED_PRECONDITION */]);
/** Sends of an update whose workflow task failed before it was kept; the workflow is usually closed by the next. */
const SENDS_AFTER_TASK_FAILURE = 3;

/**
 * The server's answer when the workflow task that took the update failed (UnhandledCommand: the task completed the
 * workflow while a signal came in): the update was not kept and may be sent again.
 */
function isLostWithItsTask(error: unknown): boolean {
  const grpc = error instanceof ServiceError ? error.cause : error;
  return isGrpcServiceError(grpc) && LOST_WITH_ITS_TASK_CODES.has(grpc.code);
}

/** Starts an update (`start` waits for its acceptance) and waits for its answer, each within its deadline. */
export async function sendUpdate<R>(
  client: Client,
  deadlines: UpdateDeadlines,
  start: () => Promise<WorkflowUpdateHandle<R>>,
): Promise<UpdateOutcome<R>> {
  const outcome = await sendUpdateUnlessBusy(client, deadlines, start);
  if (outcome.kind === 'busy') throw updateNotAnswered();
  return outcome;
}

/**
 * sendUpdate for a caller with another way to be heard (a signal): an update the workflow did not take within
 * `acceptMs` (its task busy with a local activity, say) is `busy` instead of a 503.
 */
export async function sendUpdateUnlessBusy<R>(
  client: Client,
  deadlines: UpdateDeadlines,
  start: () => Promise<WorkflowUpdateHandle<R>>,
): Promise<UpdateOutcome<R> | { kind: 'busy' }> {
  for (let send = 1; ; send += 1) {
    try {
      const handle = await client.withDeadline(Date.now() + deadlines.acceptMs, start).catch((error: unknown) => {
        if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) throw new Busy();
        throw error;
      });
      return {
        kind: 'answered',
        result: await client.withDeadline(Date.now() + deadlines.answerMs, () => handle.result()),
      };
    } catch (error) {
      if (error instanceof Busy) return { kind: 'busy' };
      if (isLostWithItsTask(error) && send < SENDS_AFTER_TASK_FAILURE) continue;
      if (isLostWithItsTask(error)) throw updateNotAnswered();
      return outcomeOf(error);
    }
  }
}

/** The update was not accepted within its deadline (as opposed to accepted and not answered). */
class Busy extends Error {}
