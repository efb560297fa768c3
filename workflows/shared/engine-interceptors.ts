/**
 * The engine's workflow interceptors (registered with the bundle, src/worker/workflow-source.ts):
 * - the request id header a workflow was started with goes on to its activities, children and next run,
 *   so an activity's logs name the API request behind it;
 * - an operation's start and final state go to the worker's `operations` sink, which turns them into
 *   metrics outside the workflow. Sinks are skipped on replay and add nothing to the history;
 * - an activity that keeps failing, as the worker reports it, shows in the workflow's `status` view (and
 *   a batch's `progress`) as `problem`, and in its search attributes (./activity-problems.ts).
 * The workflows themselves are untouched.
 */
import type { Headers, Payload } from '@temporalio/common';
import {
  ContinueAsNew,
  isCancellation,
  proxySinks,
  setHandler,
  workflowInfo,
  type WorkflowInterceptorsFactory,
} from '@temporalio/workflow';
import { ActivityProblems } from './activity-problems';
import { activityProblemSignal } from '../../src/contracts/activity-problem';
import { REQUEST_ID_HEADER, type OperationSinks } from '../../src/temporal/propagation';

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

/** The queries that answer a lifecycle's view, which carries the current problem. */
const VIEW_QUERIES = new Set(['status', 'progress']);

/** A view with its problem, unless it has one of its own (a batch's STALLED) or is not a view at all. */
function withProblem(view: unknown, problems: ActivityProblems): unknown {
  const problem = problems.current();
  if (!problem || typeof view !== 'object' || view === null || Array.isArray(view) || 'problem' in view) return view;
  return { ...view, problem };
}

/** Tells `problems` when an activity of a type starts and ends; a local activity backing off between attempts is still pending. */
function tracked<T>(
  problems: ActivityProblems,
  activity: string,
  firstAttempt: boolean,
  run: () => Promise<T>,
): Promise<T> {
  if (firstAttempt) problems.started(activity);
  const ended = (backingOff: boolean) => {
    if (!backingOff) problems.ended(activity);
  };
  return run().then(
    (result) => {
      ended(false);
      return result;
    },
    (error: unknown) => {
      ended(error instanceof Error && error.name === 'LocalActivityDoBackoff');
      throw error;
    },
  );
}

export const interceptors: WorkflowInterceptorsFactory = () => {
  let requestId: Payload | undefined;
  const problems = new ActivityProblems();
  const carry = <T extends { headers: Headers }>(input: T): T =>
    requestId ? { ...input, headers: { ...input.headers, [REQUEST_ID_HEADER]: requestId } } : input;
  return {
    inbound: [
      {
        async execute(input, next) {
          requestId = input.headers[REQUEST_ID_HEADER];
          const info = workflowInfo();
          const flow = flowOf(info.workflowType);
          setHandler(activityProblemSignal, (problem) => {
            if (problems.report(problem)) operations.problem(flow, problem.activity);
          });
          if (info.continuedFromExecutionRunId === undefined) operations.started(flow);
          try {
            const result = await next(input);
            operations.finished(flow, finalStateOf(result));
            return result;
          } catch (error) {
            if (!(error instanceof ContinueAsNew))
              operations.finished(flow, isCancellation(error) ? 'CANCELLED' : 'FAILED');
            throw error;
          }
        },
        handleQuery: async (input, next) =>
          VIEW_QUERIES.has(input.queryName) ? withProblem(await next(input), problems) : next(input),
      },
    ],
    outbound: [
      {
        scheduleActivity: (input, next) => tracked(problems, input.activityType, true, () => next(carry(input))),
        scheduleLocalActivity: (input, next) =>
          tracked(problems, input.activityType, input.attempt === 1, () => next(carry(input))),
        startChildWorkflowExecution: (input, next) => next(carry(input)),
        continueAsNew: (input, next) => next(carry(input)),
      },
    ],
  };
};
