/** Whether a worker serves the engine's task queue: Temporal lists the workers that polled it lately. */
import { temporal } from '@temporalio/proto';
import type { TemporalClientHandle } from './connection';

/**
 * Readiness probe: a worker polls the task queue for workflow tasks. The worker starts polling only once it has warmed
 * up (src/worker/warm-up.ts), so this also says that its first task will not be a cold one. Temporal keeps listing a
 * worker for a few minutes after its last poll: a worker that just died still counts until then.
 */
export async function checkWorkerPolling(
  handle: TemporalClientHandle,
  namespace: string,
  taskQueue: string,
): Promise<void> {
  const { pollers } = await handle.connection.workflowService.describeTaskQueue({
    namespace,
    taskQueue: { name: taskQueue },
    taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  if (!pollers?.length) throw new Error(`no worker polls the task queue ${taskQueue}`);
}
