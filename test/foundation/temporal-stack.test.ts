import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { connectClient, createPayloadCodec, type TemporalClientHandle } from '../../src/temporal/connection';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createEngineWorker } from '../../src/worker/create-worker';
import { pollUntil } from '../../src/util/poll';
import { ENCRYPTED_ENCODING } from '../../src/temporal/payload-codec';
import * as probeActivities from '../fixtures/probe-activities';
import { probeWorkflow } from '../fixtures/probe-workflow';
import { testConfig } from '../helpers/temporal';

const config = testConfig();
let bundle: WorkflowBundleWithSourceMap;
let temporalClient: TemporalClientHandle;
let environment: TestWorkflowEnvironment;

beforeAll(async () => {
  bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../fixtures/probe-workflow'),
    logger: quietLogger(),
  });
  // The server was started by the global setup from the project's own binary (see test/setup).
  environment = await TestWorkflowEnvironment.createFromExistingServer({ address: config.TEMPORAL_ADDRESS });
  temporalClient = await connectClient(config);
});
afterAll(async () => {
  await temporalClient.close();
  await environment.teardown();
});

function quietLogger() {
  const noop = () => undefined;
  return { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };
}

async function runProbe(
  workflowId: string,
  input: { recipientDocument: string; amountCents: number },
): Promise<string> {
  const worker = await createEngineWorker({
    config,
    connection: environment.nativeConnection,
    activities: probeActivities,
    workflows: { workflowBundle: bundle },
  });
  // The engine's own client, so that the payload codec is the one under test.
  return worker.runUntil(
    temporalClient.client.workflow.execute(probeWorkflow, {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId,
      args: [input],
    }),
  );
}

test('a workflow runs on a real worker and is found afterwards by its search attributes', async () => {
  const workflowId = `probe:${randomUUID()}`;
  const amountCents = 1_000_000 + Math.floor(Math.random() * 1_000_000);

  await expect(runProbe(workflowId, { recipientDocument: '52998224725', amountCents })).resolves.toBe(
    'paid 52998224725',
  );

  const found = await pollUntil(
    async () => {
      const ids: string[] = [];
      for await (const execution of temporalClient.client.workflow.list({
        query: `PayoutFlow = 'probe' AND PayoutStatus = 'DONE' AND AmountCents = ${amountCents}`,
      })) {
        ids.push(execution.workflowId);
      }
      return ids.length > 0 ? ids : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200, description: 'the probe workflow in visibility' },
  );
  expect(found).toEqual([workflowId]);
});

test('payloads are stored encrypted: the history holds no readable input, and the codec decodes it', async () => {
  const workflowId = `probe:${randomUUID()}`;
  const document = '39053344705';
  await runProbe(workflowId, { recipientDocument: document, amountCents: 100 });

  // Read the history through the raw gRPC service: what the server stores, no codec in the way.
  const response = await temporalClient.connection.workflowService.getWorkflowExecutionHistory({
    namespace: config.TEMPORAL_NAMESPACE,
    execution: { workflowId },
  });
  const rawHistory = Buffer.from(temporal.api.history.v1.History.encode(response.history ?? {}).finish());
  expect(rawHistory.includes(Buffer.from(document))).toBe(false);

  const started = response.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  const inputPayload = started?.input?.payloads?.[0];
  expect(Buffer.from(inputPayload?.metadata?.encoding ?? []).toString()).toBe(ENCRYPTED_ENCODING);
  expect(() => JSON.parse(Buffer.from(inputPayload?.data ?? []).toString('utf8')) as unknown).toThrow();

  const [decoded] = await createPayloadCodec(config).decode([inputPayload ?? {}]);
  expect(JSON.parse(Buffer.from(decoded?.data ?? []).toString('utf8'))).toEqual({
    recipientDocument: document,
    amountCents: 100,
  });
});

test('a payload encrypted with another key cannot be decoded', async () => {
  const [encrypted] = await createPayloadCodec(config).encode([{ metadata: {}, data: Buffer.from('"x"') }]);
  const stranger = createPayloadCodec(
    testConfig({ PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'), PAYLOAD_ENCRYPTION_KEY_ID: 'other' }),
  );
  await expect(stranger.decode([encrypted ?? {}])).rejects.toThrow(/no key with id test-key/);
});
