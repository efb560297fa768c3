/**
 * Failures sit in Temporal's history like payloads do: encrypted. An activity that fails with the
 * provider's words (here a document number) leaves an ActivityTaskFailed event whose message and stack
 * trace are an encrypted payload (the failure converter's encoded attributes, through the engine's codec):
 * `temporal workflow show` without the codec reads "Encoded failure"; the engine's client reads the words.
 */
import { randomUUID } from 'node:crypto';
import { ApplicationFailure, type Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { CardPaymentInput } from '../../src/card-payments/card-payment-input';
import { connectClient, createPayloadCodec, type TemporalClientHandle } from '../../src/temporal/connection';
import { ENCRYPTED_ENCODING, payloadEncoding } from '../../src/temporal/payload-codec';
import { pollUntil } from '../../src/util/poll';
import { connectWorker, createEngineWorker } from '../../src/worker/create-worker';
import {
  authorizationAnswerSignal,
  cardPaymentStatusQuery,
  cardPaymentWorkflowId,
  startAuthorizationUpdate,
  type CardPaymentWorkflow,
} from '../../src/contracts/card-payment';
import { engineBundle } from '../helpers/engine-harness';
import { testConfig } from '../helpers/temporal';

const WORDS = 'provider refused: CPF 52998224725 is on a blocklist';
const config = testConfig();
let client: TemporalClientHandle;
beforeAll(async () => {
  client = await connectClient(config);
});
afterAll(() => client?.close());

const input = (externalId: string): CardPaymentInput => ({
  order: {
    externalId,
    amountCents: 10_000,
    installmentCount: 1,
    payer: { name: 'Ana Souza', email: 'ana@example.com', document: '52998224725', phone: '5511987654321' },
  },
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  requestHash: 'hash',
  timing: {
    callbackWaitMs: 60_000,
    pollInitialMs: 5_000,
    pollMaxMs: 60_000,
    reviewAfterMs: 86_400_000,
    authorizeDeadlineMs: 120_000,
  },
});

test("an activity's failure is stored encrypted: its message and stack trace are not in the history's text", async () => {
  const connection = await connectWorker(config);
  const worker = await createEngineWorker({
    config,
    connection,
    workflows: { workflowBundle: await engineBundle() },
    activities: {
      checkCardPayment: () => Promise.reject(ApplicationFailure.nonRetryable(WORDS, 'ProviderRefused')),
      announceEvent: () => Promise.resolve({}),
      recordOperation: () => Promise.resolve(),
    },
  });
  const externalId = `failure-${randomUUID().slice(0, 8)}`;
  const handle = await worker.runUntil(async () => {
    const started = await client.client.workflow.start<CardPaymentWorkflow>('cardPaymentWorkflow', {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: cardPaymentWorkflowId(externalId),
      args: [input(externalId)],
    });
    await started.executeUpdate(startAuthorizationUpdate, { args: [{ brand: 'VISA', last4: '1111' }] });
    await started.signal(authorizationAnswerSignal, {
      kind: 'accepted',
      paymentId: 41,
      brand: 'VISA',
      last4: '1111',
      providerStatus: 'PENDING',
      netValueCents: 9_601,
    });
    // The workflow reads the words as ever (decoded by the worker): they are its review reason.
    await pollUntil(
      async () => ((await started.query(cardPaymentStatusQuery)).reviewReason?.includes(WORDS) ? true : undefined),
      { timeoutMs: 20_000, intervalMs: 100, description: "the failure's words in the review reason" },
    );
    return started;
  });
  await connection.close();

  const history = await handle.fetchHistory();
  const failure = history.events?.find((event) => event.activityTaskFailedEventAttributes)
    ?.activityTaskFailedEventAttributes?.failure;
  expect(failure?.message).toBe('Encoded failure');
  expect(failure?.stackTrace ?? '').toBe('');
  const stored = JSON.stringify(
    temporal.api.history.v1.History.toObject(history as temporal.api.history.v1.History, { bytes: String }),
  );
  expect(stored).not.toContain('52998224725');
  expect(stored).not.toContain('blocklist');

  const attributes = failure?.encodedAttributes as Payload;
  expect(payloadEncoding(attributes)).toBe(ENCRYPTED_ENCODING);
  const [decoded] = await createPayloadCodec(config).decode([attributes]);
  expect(JSON.parse(Buffer.from(decoded?.data ?? []).toString())).toMatchObject({
    message: WORDS,
    stack_trace: expect.any(String) as unknown,
  });
  await handle.terminate('test over');
});
