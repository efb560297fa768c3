/**
 * The worker's half of activity problems (workflows/shared/activity-problems.ts): an attempt that fails
 * once its activity has been trying for `afterMs` is reported to its workflow by a signal, which the
 * workflow shows as `problem` and indexes. Each activity execution is reported once per worker process (a
 * bounded memory of what was reported); another worker, or this one restarted, may report it again, which
 * the workflow takes as the same problem. Failures are not logged here: the activity's own line says them.
 */
import { Context } from '@temporalio/activity';
import type { Info } from '@temporalio/activity';
import { activityProblemSignal, type ActivityProblem } from '../contracts/activity-problem';

/** Reported executions remembered; past this the oldest are forgotten (a second report is harmless). */
const REMEMBERED = 10_000;
/** The workflow shows the message: long provider answers are cut. */
const MAX_MESSAGE_LENGTH = 300;

export class ActivityProblemReporter {
  private readonly reported = new Set<string>();

  constructor(private readonly afterMs: number) {}

  /** Called with a failed attempt; resolves once reported (or not worth reporting). Never throws. */
  async failed(info: Info, error: unknown): Promise<void> {
    const workflow = info.workflowExecution;
    if (!workflow || Date.now() - info.scheduledTimestampMs < this.afterMs) return;
    const key = `${workflow.workflowId}/${workflow.runId}/${info.activityId}/${info.scheduledTimestampMs}`;
    if (this.reported.has(key)) return;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_MESSAGE_LENGTH);
    const problem: ActivityProblem = {
      activity: info.activityType,
      message,
      since: new Date(info.scheduledTimestampMs).toISOString(),
    };
    try {
      await Context.current()
        .client.workflow.getHandle(workflow.workflowId, workflow.runId)
        .signal(activityProblemSignal, problem);
      this.remember(key);
    } catch {
      // The workflow closed meanwhile, or Temporal is out of reach: the next failed attempt tries again.
    }
  }

  private remember(key: string): void {
    this.reported.add(key);
    if (this.reported.size > REMEMBERED) this.reported.delete(this.reported.values().next().value ?? key);
  }
}
