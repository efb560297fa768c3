/**
 * `/metrics` through the real stack: the engine API in this process (its metrics on a port of their own), the worker as its own process
 * (`npm run worker`, with the Temporal SDK's exporter behind its /metrics). Both parse as Prometheus text,
 * and a payout moves the counters: provider calls and operations on the worker, callbacks on the API.
 */
import type { ChildProcess } from 'node:child_process';
import { countReviewQueue } from '../../src/metrics/review-queue';
import {
  signWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/payment-api/webhook-signature';
import { pollUntil } from '../../src/util/poll';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, postPayout, waitForPayout } from '../helpers/payouts';
import { opsMetricNames } from '../helpers/ops-files';
import { exportedNames, sampleSum, scrape } from '../helpers/prometheus-text';

let stack: EngineHarness;
let worker: ChildProcess | undefined;
let workerMetrics: string;

beforeAll(async () => {
  // The harness gives the spawned worker metrics ports of its own.
  // Eager starts on: the batch test below counts them.
  stack = await startEngineHarness({ BATCH_EAGER_START: 'true' });
  workerMetrics = `http://127.0.0.1:${stack.config.WORKER_METRICS_PORT}/metrics`;
  await stack.stopWorker();
  worker = await stack.spawnWorkerProcess();
});

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker?.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
  }
  await stack?.close();
});

test('the API and the worker export Prometheus text, and a payout moves their counters', async () => {
  const apiMetrics = stack.metricsUrl;
  // Never on the API's own port, which faces the internet.
  expect((await fetch(`${stack.apiUrl}/metrics`)).status).toBe(404);
  const callbacksBefore = sampleSum(await scrape(apiMetrics), 'payout_engine_callbacks_received_total', {
    verification: 'verified',
  });

  const externalId = newExternalId('metrics');
  await postPayout(stack, { externalId, amount: 12.5, pixKey: '52998224725', keyType: 'CPF' });
  await waitForPayout(stack, externalId, ['COMPLETED']);

  const fromWorker = await pollUntil(
    async () => {
      const exposition = await scrape(workerMetrics);
      return sampleSum(exposition, 'payout_engine_operations_finished_total', { flow: 'payout', state: 'COMPLETED' }) >=
        1
        ? exposition
        : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 250, description: 'the worker to count the finished payout' },
  );
  expect(sampleSum(fromWorker, 'payout_engine_operations_started_total', { flow: 'payout' })).toBeGreaterThanOrEqual(1);
  expect(
    sampleSum(fromWorker, 'payout_engine_operation_duration_seconds_count', { flow: 'payout', state: 'COMPLETED' }),
  ).toBeGreaterThanOrEqual(1);
  expect(
    sampleSum(fromWorker, 'payout_engine_provider_calls_total', { endpoint: 'withdraw', outcome: 'ok' }),
  ).toBeGreaterThanOrEqual(1);
  expect(
    sampleSum(fromWorker, 'payout_engine_provider_calls_total', { endpoint: 'checkTransaction', outcome: 'ok' }),
  ).toBeGreaterThanOrEqual(1);
  expect(
    sampleSum(fromWorker, 'payout_engine_provider_call_duration_seconds_count', { endpoint: 'withdraw' }),
  ).toBeGreaterThanOrEqual(1);
  // The Temporal SDK's runtime metrics come through the same endpoint.
  expect([...exportedNames(fromWorker)].filter((name) => name.startsWith('temporal_')).length).toBeGreaterThan(5);
  expect(sampleSum(fromWorker, 'temporal_num_pollers', { poller_type: 'workflow_task' })).toBeGreaterThanOrEqual(1);

  const fromApi = await scrape(apiMetrics);
  expect(sampleSum(fromApi, 'payout_engine_callbacks_received_total', { verification: 'verified' })).toBeGreaterThan(
    callbacksBefore,
  );
  // The API has no worker: its starts are dispatched by the server's matching.
  expect(sampleSum(fromApi, 'payout_engine_payout_starts_total', { first_task: 'dispatched' })).toBeGreaterThanOrEqual(
    1,
  );

  // A forged callback and a signed one for no payout move their own counters.
  const body = JSON.stringify({ external_id: newExternalId('nobody'), status: 'FAILED' });
  const callback = (signature: string, timestamp: string) =>
    fetch(`${stack.apiUrl}/callbacks/withdrawals`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [WEBHOOK_TIMESTAMP_HEADER]: timestamp,
        [WEBHOOK_SIGNATURE_HEADER]: signature,
      },
      body,
    });
  const now = Math.floor(Date.now() / 1000);
  expect((await callback(`v1=${'0'.repeat(64)}`, String(now))).status).toBe(401);
  const signed = signWebhook(stack.config.WEBHOOK_SECRET, body, now);
  expect((await callback(signed.signature, signed.timestamp)).status).toBe(202);
  const afterCallbacks = await scrape(apiMetrics);
  expect(
    sampleSum(afterCallbacks, 'payout_engine_callbacks_received_total', {
      route: '/callbacks/withdrawals',
      verification: 'rejected',
    }),
  ).toBeGreaterThanOrEqual(1);
  expect(
    sampleSum(afterCallbacks, 'payout_engine_callbacks_unmatched_total', { route: '/callbacks/withdrawals' }),
  ).toBeGreaterThanOrEqual(1);

  await countReviewQueue(stack.temporal.client);
  expect(exportedNames(await scrape(apiMetrics))).toContain('payout_engine_payouts_needs_review');

  // Every metric the dashboard and the alerts read is exported by one of the two (ops/, ops-files.test.ts).
  const exported = new Set([...exportedNames(fromApi), ...exportedNames(fromWorker)]);
  expect(opsMetricNames().filter((name) => !exported.has(name))).toEqual([]);
});

test("a batch's items and the batch itself show on the worker's metrics; with BATCH_EAGER_START it starts them eagerly", async () => {
  const prefix = newExternalId('metrics-batch');
  const items = [0, 1].map((index) => ({
    externalId: `${prefix}-${index}`,
    amount: 10 + index,
    pixKey: `seller${index}@example.com`,
    keyType: 'EMAIL',
  }));
  const before = await scrape(workerMetrics);
  const completedBefore = sampleSum(before, 'payout_engine_batch_item_outcomes_total', { state: 'COMPLETED' });
  const eagerBefore = sampleSum(before, 'payout_engine_payout_starts_total', { first_task: 'eager' });
  const accepted = await stack.api<{ batchId: string }>('POST', '/v1/payout-batches', { items });
  expect(accepted.status).toBe(202);
  await pollUntil(
    async () => {
      const exposition = await scrape(workerMetrics);
      const itemsDone =
        sampleSum(exposition, 'payout_engine_batch_item_outcomes_total', { state: 'COMPLETED' }) >= completedBefore + 2;
      return itemsDone &&
        sampleSum(exposition, 'payout_engine_operations_finished_total', { flow: 'payoutBatch', state: 'DONE' }) >= 1
        ? true
        : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250, description: 'the batch and its items on the worker metrics' },
  );
  // With BATCH_EAGER_START the batch's worker starts them on its own connection: each first task came back in the start's answer.
  expect(sampleSum(await scrape(workerMetrics), 'payout_engine_payout_starts_total', { first_task: 'eager' })).toBe(
    eagerBefore + 2,
  );
});
