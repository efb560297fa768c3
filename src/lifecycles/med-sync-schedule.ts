/**
 * The Schedule `med-sync` (visible and pausable in the Temporal UI's Schedules page): every
 * MED_SYNC_INTERVAL_MS it runs the MED sync workflow, skipping a run while the previous one still
 * works. Created when a worker starts, idempotently: a second worker, or a restart with a new interval,
 * updates it and keeps whatever an operator set (paused stays paused).
 */
import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
  type ScheduleSpec,
} from '@temporalio/client';
import type { Config } from '../config/env';
import type { MedSyncInput } from '../contracts/infraction';

export type MedSyncConfig = Pick<
  Config,
  'MED_SYNC_SCHEDULE_ID' | 'MED_SYNC_INTERVAL_MS' | 'MED_SYNC_PAGE_SIZE' | 'TEMPORAL_TASK_QUEUE'
>;

export async function ensureMedSyncSchedule(client: Client, config: MedSyncConfig): Promise<void> {
  const spec: ScheduleSpec = { intervals: [{ every: config.MED_SYNC_INTERVAL_MS }] };
  const action: ScheduleOptionsStartWorkflowAction<(input: MedSyncInput) => Promise<unknown>> = {
    type: 'startWorkflow',
    workflowType: 'medSyncWorkflow',
    workflowId: `${config.MED_SYNC_SCHEDULE_ID}-run`,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [{ perPage: config.MED_SYNC_PAGE_SIZE }],
  };
  try {
    await client.schedule.create({
      scheduleId: config.MED_SYNC_SCHEDULE_ID,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      state: {
        note: 'Reads every page of the provider’s MED infraction list and brings each infraction workflow up to date.',
      },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(config.MED_SYNC_SCHEDULE_ID).update((previous) => ({ ...previous, spec, action }));
  }
}

/** A run now (POST /v1/infractions/sync); the overlap policy still applies. */
export async function triggerMedSync(client: Client, scheduleId: string): Promise<void> {
  await client.schedule.getHandle(scheduleId).trigger();
}
