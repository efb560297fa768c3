/**
 * A deploy under Worker Versioning (WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID): build A runs and is current; a
 * payout and a batch start on it; build B starts beside it and is made current. A new payout runs on B; the payout
 * started on A stays pinned to A and ends there; the batch, auto-upgrading, moves to B at its next task and ends there.
 * The provider holds every withdrawal (SANDBOX_SETTLE_MS) until the test settles it, so both builds see open work.
 */
import { randomUUID } from 'node:crypto';
import { temporal as proto } from '@temporalio/proto';
import { pollUntil } from '../../src/util/poll';
import { checkWorkerPolling } from '../../src/temporal/task-queue-pollers';
import { batchWorkflowId } from '../../src/contracts/batch';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, waitForPayout } from '../helpers/payouts';
import { batchItems, waitBatchDone } from '../helpers/batches';
import { forceOutcome } from '../helpers/charges';
import { temporalCli } from '../helpers/workflow-reset';

const { VersioningBehavior } = proto.api.enums.v1;
const deploymentName = `payout-engine-${randomUUID().slice(0, 8)}`;

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness({ SANDBOX_SETTLE_MS: '3600000' }, { inProcessWorker: false });
}, 120_000);
afterAll(() => stack?.close());

const workerOf = (buildId: string) =>
  stack.spawnWorkerProcess({ WORKER_DEPLOYMENT_NAME: deploymentName, WORKER_BUILD_ID: buildId });

/** `temporal worker deployment <command>` as an operator runs it: refused until the build's workers have polled. */
async function deploymentCli(
  command: 'set-current-version' | 'set-ramping-version',
  buildId: string,
  ...flags: string[]
) {
  await pollUntil(
    async () => {
      await temporalCli(
        stack,
        'worker',
        'deployment',
        command,
        '--deployment-name',
        deploymentName,
        '--build-id',
        buildId,
        '--yes',
        ...flags,
      );
      return true;
    },
    { timeoutMs: 30_000, intervalMs: 250, description: `${command} ${buildId}` },
  );
}

/** The build that completed the workflow's last task, and the behaviour it declared. */
async function versionOf(workflowId: string): Promise<{ buildId?: string; behavior?: string }> {
  const { raw } = await stack.temporal.client.workflow.getHandle(workflowId).describe();
  const info = raw.workflowExecutionInfo?.versioningInfo;
  return {
    ...(info?.deploymentVersion?.buildId ? { buildId: info.deploymentVersion.buildId } : {}),
    ...(info?.behavior ? { behavior: VersioningBehavior[info.behavior] } : {}),
  };
}

const onBuild = (workflowId: string, buildId: string) =>
  pollUntil(async () => ((await versionOf(workflowId)).buildId === buildId ? true : undefined), {
    timeoutMs: 30_000,
    intervalMs: 250,
    description: `${workflowId} to run a task on build ${buildId}`,
  });

const submit = (externalId: string) =>
  stack.api('POST', '/v1/payouts', { externalId, amount: 25, pixKey: 'ana@example.com', keyType: 'EMAIL' });

test('a new build takes new payouts and the batches in flight; a payout started on the old build ends there', async () => {
  await workerOf('build-a');
  await deploymentCli('set-current-version', 'build-a');
  // The API's readiness (a worker polls the task queue) counts a versioned worker, once the server lists its poll.
  await pollUntil(
    () =>
      checkWorkerPolling(stack.temporal, stack.config.TEMPORAL_NAMESPACE, stack.config.TEMPORAL_TASK_QUEUE).then(
        () => true,
        () => undefined,
      ),
    { timeoutMs: 30_000, intervalMs: 250, description: 'the versioned worker to be listed as polling the task queue' },
  );

  const first = newExternalId('pinned');
  expect((await submit(first)).status).toBe(202);
  await waitForPayout(stack, first, ['SUBMITTED']);
  const batchId = `versioned-${randomUUID().slice(0, 8)}`;
  const [item] = batchItems('versioned', 1);
  expect((await stack.api('POST', '/v1/payout-batches', { batchId, items: [item] })).status).toBe(202);
  await waitForPayout(stack, item!.externalId, ['SUBMITTED']);
  expect(await versionOf(payoutWorkflowId(first))).toEqual({
    buildId: 'build-a',
    behavior: 'VERSIONING_BEHAVIOR_PINNED',
  });
  expect(await versionOf(batchWorkflowId(batchId))).toEqual({
    buildId: 'build-a',
    behavior: 'VERSIONING_BEHAVIOR_AUTO_UPGRADE',
  });

  // Ramped to every new workflow first (docs/operations.md ramps a share), then current.
  await workerOf('build-b');
  await deploymentCli('set-ramping-version', 'build-b', '--percentage', '100');
  const second = newExternalId('new-build');
  expect((await submit(second)).status).toBe(202);
  await waitForPayout(stack, second, ['SUBMITTED']);
  expect(await versionOf(payoutWorkflowId(second))).toEqual({
    buildId: 'build-b',
    behavior: 'VERSIONING_BEHAVIOR_PINNED',
  });
  await deploymentCli('set-current-version', 'build-b');
  // The batch polls its payouts every BATCH_POLL_MS: its next task is B's.
  await onBuild(batchWorkflowId(batchId), 'build-b');

  // A takes no new work and drains: its pinned payout is still open.
  const oldBuild = ['--deployment-name', deploymentName, '--build-id', 'build-a'];
  expect(await temporalCli(stack, 'worker', 'deployment', 'describe-version', ...oldBuild)).toMatch(
    /DrainageStatus\s+draining/,
  );
  // The payout's last task (its outcome) comes after B became current, and still runs on A.
  for (const externalId of [first, second, item!.externalId])
    expect(await forceOutcome(stack, externalId, { status: 'COMPLETED' })).toBe(200);
  await waitForPayout(stack, first, ['COMPLETED']);
  await waitForPayout(stack, second, ['COMPLETED']);
  await stack.temporal.client.workflow.getHandle(payoutWorkflowId(first)).result();
  expect(await versionOf(payoutWorkflowId(first))).toEqual({
    buildId: 'build-a',
    behavior: 'VERSIONING_BEHAVIOR_PINNED',
  });
  await waitBatchDone(stack, batchId);
  expect((await versionOf(batchWorkflowId(batchId))).buildId).toBe('build-b');
}, 180_000);
