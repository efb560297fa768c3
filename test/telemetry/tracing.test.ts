/**
 * OpenTelemetry traces through the real stack: the API and a worker as their own processes (`npm run api`,
 * `npm run worker` on a prebuilt bundle, as production runs it) with OTEL_EXPORTER_OTLP_ENDPOINT naming a
 * small OTLP/HTTP receiver, the sandbox as the provider. A payout completes; its spans must form one trace from the API's request to the provider call.
 * With the variable unset, the SDK is not even loaded.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/net/free-port';
import { pollUntil } from '../../src/util/poll';
import { tracedBundlePath, writeWorkflowBundle } from '../../src/worker/workflow-source';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { httpCall } from '../helpers/http';
import { newExternalId } from '../helpers/payouts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver';

const SERVER = 2;
const CLIENT = 3;

let receiver: OtlpReceiver;
let stack: EngineHarness;
let api: ChildProcess;
let worker: ChildProcess;
let apiUrl: string;
const logs: string[] = [];
const bundleDir = mkdtempSync(path.join(os.tmpdir(), 'traced-bundle-'));

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // The standard variables, as an operator sets them; the spawned processes inherit them. Batches leave every 100 ms.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.endpoint;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
  const apiPort = await freePort();
  apiUrl = `http://127.0.0.1:${apiPort}`;
  // What `npm run build:workflows` writes: the bundle and its traced twin, which the worker runs with tracing on.
  const bundle = path.join(bundleDir, 'workflow-bundle.js');
  await writeWorkflowBundle(bundle);
  expect([existsSync(bundle), existsSync(tracedBundlePath(bundle))]).toEqual([true, true]);
  // The provider's callbacks reach the traced API process, not the harness's own.
  stack = await startEngineHarness(
    { ENGINE_PUBLIC_URL: apiUrl, WORKFLOW_BUNDLE_PATH: bundle },
    { inProcessWorker: false },
  );
  [api, worker] = await Promise.all([stack.spawnApiProcess(apiPort), stack.spawnWorkerProcess()]);
  for (const child of [api, worker])
    child.stdout?.on('data', (chunk: Buffer) =>
      logs.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((line) => line.startsWith('{')),
      ),
    );
}, 180_000);

afterAll(async () => {
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
  await stack?.close();
  await receiver?.close();
  rmSync(bundleDir, { recursive: true, force: true });
});

/** The chain of parents from a span up to its trace's root, the span first. */
function ancestry(span: ReceivedSpan, spans: readonly ReceivedSpan[]): ReceivedSpan[] {
  const chain = [span];
  for (let current = span; current.parentSpanId !== '';) {
    const parent = spans.find(
      (candidate) => candidate.traceId === current.traceId && candidate.spanId === current.parentSpanId,
    );
    if (!parent) break;
    chain.push(parent);
    current = parent;
  }
  return chain;
}

test("one trace from the API's request through the workflow start, the workflow and its activity to the provider call; the callback's update traced and linked to it; logs carry the ids", async () => {
  const externalId = newExternalId('traced');
  const token = stack.config.ENGINE_API_KEYS[0]?.secret ?? '';
  const created = await httpCall(`${apiUrl}/v1/payouts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: { externalId, amount: 21.5, pixKey: '52998224725', keyType: 'CPF' },
  });
  expect(created.status).toBe(202);
  await pollUntil(
    async () =>
      (
        await httpCall<{ status: string }>(`${apiUrl}/v1/payouts/${externalId}`, {
          method: 'GET',
          headers: { authorization: `Bearer ${token}` },
        })
      ).body.status === 'COMPLETED'
        ? true
        : undefined,
    { timeoutMs: 60_000, intervalMs: 300, description: `${externalId} COMPLETED` },
  );

  // The provider call of this payout (the withdrawal's POST, endpoint `withdraw`), whose ancestry must lead back to the API's request.
  const chain = await pollUntil(
    () => {
      const spans = receiver.spans;
      for (const call of spans.filter(
        (span) => span.kind === CLIENT && span.service === 'payout-worker' && span.name === 'POST withdraw',
      )) {
        const found = ancestry(call, spans);
        const root = found.at(-1);
        if (
          root?.kind === SERVER &&
          root.name === 'POST /v1/payouts' &&
          found.some((span) => span.name.startsWith('RunActivity:'))
        )
          return found;
      }
      return undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, description: 'a provider call span whose trace starts at POST /v1/payouts' },
  );
  const names = chain.map((span) => `${span.service} ${span.name}`).reverse();
  expect(names).toEqual([
    'payout-api POST /v1/payouts',
    'payout-api StartWorkflow:payoutWorkflow',
    'payout-worker RunWorkflow:payoutWorkflow',
    'payout-worker StartActivity:submitWithdrawal',
    'payout-worker RunActivity:submitWithdrawal',
    'payout-worker POST withdraw',
  ]);
  const traceId = chain[0]?.traceId ?? '';
  expect(new Set(chain.map((span) => span.traceId))).toEqual(new Set([traceId]));

  // The provider's callback comes in a trace of its own: its request span signals the payout's workflow and links to the payout's trace.
  const callback = await pollUntil(
    () =>
      receiver.spans.find(
        (span) =>
          span.service === 'payout-api' &&
          span.kind === SERVER &&
          span.name.startsWith('POST /callbacks/') &&
          span.links.some((link) => link.traceId === traceId),
      ),
    { timeoutMs: 30_000, intervalMs: 200, description: "the callback's request span, linked to the payout's trace" },
  );
  const starting = receiver.spans.find((span) => span.spanId === callback.links[0]?.spanId);
  expect(starting?.name).toMatch(/^StartWorkflow:payout/);
  // Delivered as the payout's update (the signal only when the update is not taken in time).
  const delivered = await pollUntil(
    () =>
      receiver.spans.find(
        (span) =>
          span.traceId === callback.traceId &&
          (span.name === 'StartWorkflowUpdate:withdrawalCallback' || span.name.startsWith('SignalWorkflow:')),
      ),
    { timeoutMs: 30_000, intervalMs: 200, description: "the callback's update (or signal) span" },
  );
  expect(delivered.name).toBe('StartWorkflowUpdate:withdrawalCallback');
  expect(ancestry(delivered, receiver.spans).at(-1)?.spanId).toBe(callback.spanId);

  // A log line of the worker written inside the trace carries its ids.
  const traced = logs
    .map((line) => JSON.parse(line) as { trace_id?: string; span_id?: string })
    .filter((line) => line.trace_id === traceId);
  expect(traced.length).toBeGreaterThan(0);
  expect(traced.every((line) => /^[0-9a-f]{16}$/.test(line.span_id ?? ''))).toBe(true);
}, 120_000);

test('with no OTLP endpoint set, tracing is off and no module of the SDK or of the interceptors is loaded', () => {
  const root = path.join(__dirname, '..', '..');
  const script = `
    const { startTracing } = require('./src/telemetry/tracing');
    require('./src/api/app'); require('./src/payment-api/http-transport'); require('./src/worker/create-worker'); require('./src/logging/logger');
    const loaded = Object.keys(require.cache).filter((file) => /sdk-trace|exporter-trace|interceptors-opentelemetry/.test(file));
    process.stdout.write(JSON.stringify({ tracing: startTracing('payout-api') === undefined ? 'off' : 'on', loaded }));`;
  const env = { ...process.env };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, env, encoding: 'utf8' });
  expect(JSON.parse(run.stdout || run.stderr)).toEqual({ tracing: 'off', loaded: [] });
});
