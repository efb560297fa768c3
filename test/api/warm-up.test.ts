/**
 * The first request after a start is not a cold one (issue 41, item 6): /readyz says not ready until the API has
 * warmed up and a worker polls the task queue (a worker polls only once warmed up), and after both warm-ups the first
 * charge's round trip, through the API and the worker, generates none of the Temporal SDK's message code.
 */
import { coresdk, temporal } from '@temporalio/proto';
import { warmUpApi } from '../../src/api/warm-up';
import { checkWorkerPolling } from '../../src/temporal/task-queue-pollers';
import { pollUntil } from '../../src/util/poll';
import { warmUpWorker } from '../../src/worker/warm-up';
import { forThisFile } from '../helpers/for-this-file';
import { startEngineHarness } from '../helpers/engine-harness';

// No worker until the test starts one: whether one polls is what the first test reads.
const stack = forThisFile(() => startEngineHarness({}, { inProcessWorker: false }));

interface Reflected {
  fullName?: string;
  encode?: unknown;
  nestedArray?: Reflected[];
}

/**
 * The message types whose encoder is still protobufjs's stub, which generates the code on its first call: what a
 * request or task that meets one of them pays first.
 */
function notYetGenerated(): Set<string> {
  const stubs = new Set<string>();
  const visit = (item: Reflected) => {
    if ('fieldsArray' in item && item.encode === (Object.getPrototypeOf(item) as Reflected).encode)
      stubs.add(item.fullName ?? '');
    for (const nested of item.nestedArray ?? []) visit(nested);
  };
  visit(temporal as unknown as Reflected);
  visit(coresdk as unknown as Reflected);
  return stubs;
}

test('/readyz waits for the API to warm up and for a worker to poll the task queue', async () => {
  const warmUp = warmUpApi((error) => {
    throw error;
  });
  await expect(warmUp.check()).rejects.toThrow('warming up');
  await warmUp.done;
  await expect(warmUp.check()).resolves.toBeUndefined();

  const { config, temporal: client } = stack;
  const workerPolls = () => checkWorkerPolling(client, config.TEMPORAL_NAMESPACE, config.TEMPORAL_TASK_QUEUE);
  await expect(workerPolls()).rejects.toThrow(/no worker polls/);
  await stack.startWorker();
  await pollUntil(() => workerPolls().then(() => true), {
    timeoutMs: 30_000,
    description: 'the worker to be listed as a poller',
  });
});

test("after the warm-ups, the first charge's round trip generates no message code in the API or the worker", async () => {
  await warmUpApi((error) => {
    throw error;
  }).done;
  await warmUpWorker();
  await stack.startWorker();
  const before = notYetGenerated();
  expect(before.size).toBeGreaterThan(0);
  const answer = await stack.api('POST', '/v1/charges', {
    externalId: `warm${Date.now()}`,
    amount: 12.5,
    payer: { name: 'Ana Souza', document: '52998224725' },
  });
  expect(answer.status).toBe(201);
  const after = notYetGenerated();
  expect([...before].filter((name) => !after.has(name))).toEqual([]);
});
