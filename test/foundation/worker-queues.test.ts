/**
 * `npm run worker` serves two task queues: the engine's and the merchant webhook deliveries' (its own slots). An
 * operator sees both polled, and one SIGTERM stops the process cleanly, both workers drained.
 */
import { once } from 'node:events';
import { temporal as proto } from '@temporalio/proto';
import { pollUntil } from '../../src/util/poll';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness({}, { inProcessWorker: false });
});
afterAll(() => stack?.close());

async function activityPollers(taskQueue: string): Promise<number> {
  const { pollers } = await stack.temporal.connection.workflowService.describeTaskQueue({
    namespace: stack.config.TEMPORAL_NAMESPACE,
    taskQueue: { name: taskQueue },
    taskQueueType: proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
  });
  return pollers?.length ?? 0;
}

test('the worker process polls the deliveries’ queue beside the engine’s, and stops both on one SIGTERM', async () => {
  const worker = await stack.spawnWorkerProcess();
  let output = '';
  worker.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (const queue of [stack.config.TEMPORAL_TASK_QUEUE, stack.config.MERCHANT_WEBHOOK_TASK_QUEUE]) {
    await pollUntil(async () => ((await activityPollers(queue)) > 0 ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 200,
      description: `a worker polling activities on ${queue}`,
    });
  }
  const exited = once(worker, 'exit');
  worker.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  expect(code).toBe(0);
  expect(output).toContain('"worker.stopped"');
});
