/** The report a worker sends a workflow whose activity keeps failing (workflows/shared/activity-problems.ts keeps it). */
import { defineSignal } from '@temporalio/workflow';

export interface ActivityProblem {
  /** The activity type, e.g. `submitWithdrawal`. */
  activity: string;
  /** The last failed attempt's message. */
  message: string;
  /** ISO time the activity was first scheduled: how long it has been trying. */
  since: string;
}

export const activityProblemSignal = defineSignal<[ActivityProblem]>('activityProblem');
