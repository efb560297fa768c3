/**
 * The engine's workflow interceptors (registered with the bundle, src/worker/workflow-source.ts):
 * - the request id header a workflow was started with goes on to its activities, children and next run,
 *   so an activity's logs name the API request behind it;
 * - an operation's start and final state go to the worker's `operations` sink, which turns them into
 *   metrics outside the workflow. Sinks are skipped on replay and add nothing to the history.
 * The workflows themselves are untouched.
 */
import type { Headers, Payload } from '@temporalio/common';
import { ContinueAsNew, isCancellation, proxySinks, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { REQUEST_ID_HEADER, type OperationSinks } from './propagation';

const { operations } = proxySinks<OperationSinks>();

/** `payoutWorkflow` → `payout`, `payoutBatchWorkflow` → `payoutBatch`: one bounded label per flow. */
export function flowOf(workflowType: string): string {
  return workflowType.replace(/Workflow$/, '');
}

const STATE_NAME = /^[A-Z][A-Z_]{0,31}$/;

/**
 * A lifecycle's view carries its final `state`; a batch says whether it was cancelled; anything else just
 * ended. Only a state's name becomes a label: anything else would grow the metric without bound.
 */
export function finalStateOf(result: unknown): string {
  if (typeof result !== 'object' || result === null) return 'DONE';
  const { state, cancelled } = result as { state?: unknown; cancelled?: unknown };
  if (typeof state === 'string' && STATE_NAME.test(state)) return state;
  return cancelled === true ? 'CANCELLED' : 'DONE';
}

export const interceptors: WorkflowInterceptorsFactory = () => {
  let requestId: Payload | undefined;
  const carry = <T extends { headers: Headers }>(input: T): T => (requestId ? { ...input, headers: { ...input.headers, [REQUEST_ID_HEADER]: requestId } } : input);
  return {
    inbound: [
      {
        async execute(input, next) {
          requestId = input.headers[REQUEST_ID_HEADER];
          const info = workflowInfo();
          const flow = flowOf(info.workflowType);
          if (info.continuedFromExecutionRunId === undefined) operations.started(flow);
          try {
            const result = await next(input);
            operations.finished(flow, finalStateOf(result));
            return result;
          } catch (error) {
            if (!(error instanceof ContinueAsNew)) operations.finished(flow, isCancellation(error) ? 'CANCELLED' : 'FAILED');
            throw error;
          }
        },
      },
    ],
    outbound: [
      {
        scheduleActivity: (input, next) => next(carry(input)),
        scheduleLocalActivity: (input, next) => next(carry(input)),
        startChildWorkflowExecution: (input, next) => next(carry(input)),
        continueAsNew: (input, next) => next(carry(input)),
      },
    ],
  };
};
