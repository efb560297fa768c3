/**
 * The one message every lifecycle's workflow takes (workflows/shared/activity-problems.ts): the worker
 * signals it when an activity keeps failing (src/worker/activity-problem-reporter.ts). Re-exported here as
 * each lifecycle's client re-exports its own contract: code outside workflows/ reaches a workflow's
 * definitions through src/lifecycles/ only.
 */
export { activityProblemSignal, type ActivityProblem } from '../../workflows/shared/activity-problems';
