/**
 * Anyone who reaches Temporal can start a workflow by hand. The worker decodes only payloads our codec
 * encrypted, so a payout started with a plaintext input never reaches an activity: nothing is paid.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { temporal } from '@temporalio/proto';
import type { Payload } from '@temporalio/common';
import { temporalCliPath } from '../../tools/temporal/binaries';
import { createPayloadCodec } from '../../src/temporal/connection';
import { pollUntil } from '../../src/util/poll';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { startEngineHarness } from '../helpers/engine-harness';
import { newExternalId } from '../helpers/payouts';
import { temporalTestAddress } from '../helpers/temporal';
import { forThisFile } from '../helpers/for-this-file';

const EventType = temporal.api.enums.v1.EventType;
const stack = forThisFile(() => startEngineHarness());

test('a payout started with a plaintext input from the Temporal CLI fails its workflow task and posts nothing', async () => {
  const externalId = newExternalId('plaintext');
  const workflowId = payoutWorkflowId(externalId);
  const input = {
    externalId,
    amountCents: 2_500,
    pixKey: '52998224725',
    keyType: 'CPF',
    requestHash: 'forged',
    timing: {
      callbackWaitMs: 1_000,
      pollInitialMs: 300,
      pollMaxMs: 1_000,
      reviewAfterMs: 60_000,
      submitDeadlineMs: 60_000,
    },
  };
  await promisify(execFile)(temporalCliPath(), [
    'workflow',
    'start',
    '--type',
    'payoutWorkflow',
    '--task-queue',
    stack.config.TEMPORAL_TASK_QUEUE,
    '--workflow-id',
    workflowId,
    '--input',
    JSON.stringify(input),
    '--address',
    temporalTestAddress(),
    '--namespace',
    stack.config.TEMPORAL_NAMESPACE,
  ]);

  try {
    // The first thing the worker does with the input, whichever it is: refuse it, or schedule the submit activity.
    const firstOutcome = await pollUntil(
      async () => {
        const { history } = await stack.temporal.connection.workflowService.getWorkflowExecutionHistory({
          namespace: stack.config.TEMPORAL_NAMESPACE,
          execution: { workflowId },
        });
        return history?.events?.find((event) =>
          [
            EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED,
            EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
            EventType.EVENT_TYPE_MARKER_RECORDED,
          ].includes(event.eventType ?? 0),
        );
      },
      { timeoutMs: 30_000, intervalMs: 200, description: `the worker to process ${workflowId}` },
    );
    expect(EventType[firstOutcome.eventType ?? 0]).toBe('EVENT_TYPE_WORKFLOW_TASK_FAILED');
    // The failure's words are stored encrypted (src/temporal/failure-converter.ts): the engine's codec reads them.
    const failure = firstOutcome.workflowTaskFailedEventAttributes?.failure;
    expect(failure?.message).toBe('Encoded failure');
    const [words] = await createPayloadCodec(stack.config).decode([failure?.encodedAttributes as Payload]);
    expect((JSON.parse(Buffer.from(words?.data ?? []).toString()) as { message: string }).message).toMatch(
      /not encrypted/,
    );

    const posted = await stack.admin<{ operations: unknown[] }>(
      'GET',
      `/sandbox/operations?externalId=${encodeURIComponent(externalId)}`,
    );
    expect(posted.status).toBe(200);
    expect(posted.body.operations).toEqual([]);
  } finally {
    await stack.temporal.client.workflow.getHandle(workflowId).terminate('test cleanup');
  }
});
