/**
 * Why a workflow does not move while one of its activities keeps failing (the provider unreachable, the
 * store down): every lifecycle's view shows `problem: { activity, message, since }`, the search attribute
 * `ActivityProblemSince` finds such workflows in the Temporal UI, and the worker counts each report.
 *
 * A workflow cannot see the attempts of an activity the server retries, so the worker tells it: its
 * activity interceptor signals `activityProblem` when an attempt fails past ACTIVITY_PROBLEM_AFTER_MS
 * (src/worker/activity-problem-reporter.ts). The workflow interceptor keeps what was reported while an
 * activity of that type is pending, and forgets it once that activity ends (done, or failed for good).
 * Histories recorded before this carry no such signal and replay as they were: nothing here makes a
 * command unless a report arrived.
 */
import { upsertSearchAttributes } from '@temporalio/workflow';
import type { ActivityProblem } from '../../src/contracts/activity-problem';
import { ActivityProblemSince } from '../../src/temporal/search-attributes';

/** One per workflow run (built by the interceptor factory). */
export class ActivityProblems {
  private readonly pending = new Map<string, number>();
  private readonly problems = new Map<string, ActivityProblem>();

  /** The oldest problem of an activity still pending, if any. */
  current(): ActivityProblem | undefined {
    let oldest: ActivityProblem | undefined;
    for (const problem of this.problems.values()) if (!oldest || problem.since < oldest.since) oldest = problem;
    return oldest;
  }

  started(activity: string): void {
    this.pending.set(activity, (this.pending.get(activity) ?? 0) + 1);
  }

  /** The activity ended either way: what was reported about it no longer holds. */
  ended(activity: string): void {
    const left = (this.pending.get(activity) ?? 1) - 1;
    if (left > 0) {
      this.pending.set(activity, left);
      return;
    }
    this.pending.delete(activity);
    if (this.problems.delete(activity)) this.index();
  }

  /** A report of an activity that already ended (a local one's report arrives after its result) changes nothing. */
  report(problem: ActivityProblem): boolean {
    if (!this.pending.has(problem.activity)) return false;
    const first = this.problems.get(problem.activity) === undefined;
    this.problems.set(problem.activity, problem);
    if (first) this.index();
    return first;
  }

  private index(): void {
    const current = this.current();
    upsertSearchAttributes({ [ActivityProblemSince.name]: current ? [new Date(current.since)] : [] });
  }
}
