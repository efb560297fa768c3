/** Which run an activity claims intents for (src/intents): its workflow's run, never the attempt or the activity. */
import { Context } from '@temporalio/activity';

export function claimingRun(): string {
  const { workflowExecution, activityId } = Context.current().info;
  // A retry of this run is "this run"; the run a reset or a re-run makes is another one. An activity
  // started outside any workflow (none of the engine's) would hold its intents by its own id.
  return workflowExecution?.runId ?? activityId;
}
