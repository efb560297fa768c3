/**
 * The time-skipping test server (Temporal's own, from the pinned wheel) for workflow tests with stubbed
 * activities: a day of timers runs in a second. The engine's search attributes are registered on it,
 * as the dev server has them.
 */
import type { OperationActivities } from '../../activities/operation-activities';
import type { MerchantEventActivities } from '../../activities/merchant-event-activities';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { SearchAttributeType } from '@temporalio/common';
import { temporalTestServerPath } from '../../tools/temporal/binaries';
import { ENGINE_SEARCH_ATTRIBUTES } from '../../src/temporal/search-attributes';
import { engineBundle } from './engine-harness';
import { operationSinks } from '../../src/worker/operation-sinks';
import { startedForThisFile } from './for-this-file';

const INDEXED_TYPE = {
  [SearchAttributeType.KEYWORD]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  [SearchAttributeType.INT]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT,
  [SearchAttributeType.DATETIME]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
} as const;

export async function startTimeSkipping(): Promise<TestWorkflowEnvironment> {
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: temporalTestServerPath() } },
  });
  const searchAttributes = Object.fromEntries(
    ENGINE_SEARCH_ATTRIBUTES.map((key) => {
      const type = INDEXED_TYPE[key.type];
      if (type === undefined) throw new Error(`search attribute ${key.name}: type ${key.type} not mapped`);
      return [key.name, type];
    }),
  );
  await env.connection.operatorService.addSearchAttributes({ namespace: env.namespace ?? 'default', searchAttributes });
  return env;
}

/** What announcing a merchant event does when no endpoint subscribes to it: nothing (src/merchant-events/announce.ts); and no read model to write rows to. */
const noEndpoints: Pick<MerchantEventActivities, 'announceEvent'> & OperationActivities = {
  announceEvent: () => Promise.resolve({}),
  recordOperation: () => Promise.resolve(),
};

/** Runs `body` with a worker of the engine's workflows and the given (stubbed) activities; no merchant endpoint is registered. */
export async function withWorker<T>(
  env: TestWorkflowEnvironment,
  taskQueue: string,
  activities: object,
  body: () => Promise<T>,
): Promise<T> {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await engineBundle(),
    activities: { ...noEndpoints, ...activities },
    sinks: operationSinks(),
  });
  return worker.runUntil(body);
}

/** The time-skipping test server for the file's workflow tests. */
export function timeSkippingForThisFile(): TestWorkflowEnvironment {
  return startedForThisFile(startTimeSkipping, (env) => env.teardown());
}
