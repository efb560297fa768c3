/**
 * Where a trace may start and what travels with it, through the stack with tracing on (the API and a worker in
 * this process, the sandbox behind the recording proxy, spans to a small OTLP receiver):
 * - a merchant's request with a valid API key continues the merchant's trace (W3C `traceparent`), and the
 *   `baggage` it sends goes nowhere: not to the provider, not into Temporal's headers, which the codec does not
 *   encrypt;
 * - every route reached without an API key (a provider callback, the checkout, the codec) and a /v1 call with a
 *   wrong key start a trace of their own and at most link the caller's span;
 * - a workflow started by anyone else with baggage in its trace header passes none of it on to its activities;
 * - the processes' propagator is W3C Trace Context alone, even where OTEL_PROPAGATORS asks for baggage.
 */
import { randomBytes } from 'node:crypto';
import { propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { Client, type WorkflowClientInterceptor } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import { payoutInput, payoutWorkflowId, startPayoutWorkflow } from '../../src/lifecycles/payout-client';
import { signWebhook } from '../../src/payment-api/webhook-signature';
import { payoutTiming } from '../../src/payouts/payout-input';
import { payoutRequestSchema } from '../../src/payouts/payout-request';
import { startTracing, type Tracing } from '../../src/telemetry/tracing';
import { createDataConverter } from '../../src/temporal/connection';
import { pollUntil } from '../../src/util/poll';
import { jsonAnswer } from '../helpers/provider-proxy';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver';
import { newExternalId, waitForPayout } from '../helpers/payouts';
import { postSignedWithdrawalCallback, withdrawalCallbackBody } from '../helpers/callbacks';

const SERVER = 2;
const WITHDRAW = '/api/withdrawals/withdraw';

let collector: OtlpReceiver;
let tracing: Tracing | undefined;
let stack: EngineHarness;
const codecToken = `codec-${randomBytes(16).toString('hex')}`;
/** What a caller puts in its baggage: found anywhere beyond the request, it leaked. */
const secret = `baggage-${randomBytes(16).toString('hex')}`;

beforeAll(async () => {
  collector = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.endpoint;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
  // An operator asking for baggage too: the engine does not take it.
  process.env.OTEL_PROPAGATORS = 'tracecontext,baggage';
  tracing = startTracing('payout-api');
  stack = await startEngineHarness({ CODEC_TOKEN: codecToken }, { tracing, providerProxy: true });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await tracing?.shutdown();
  await collector?.close();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
  delete process.env.OTEL_PROPAGATORS;
});

/** A caller's own span, as its `traceparent` names it. */
function callerSpan(): { traceId: string; spanId: string; traceparent: string } {
  const [traceId, spanId] = [randomBytes(16).toString('hex'), randomBytes(8).toString('hex')];
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** The API's request span of the request that sent `caller`: in the caller's trace, or linked to it. */
function serverSpanOf(caller: { traceId: string }): Promise<ReceivedSpan> {
  return pollUntil(
    () =>
      collector.spans.find(
        (span) =>
          span.kind === SERVER &&
          (span.traceId === caller.traceId || span.links.some((link) => link.traceId === caller.traceId)),
      ),
    { timeoutMs: 15_000, intervalMs: 100, description: "the request's server span" },
  );
}

/** The trace header of every event of the workflow's history that has one (start, signals, scheduled activities), as Temporal stores it. */
async function traceHeaders(workflowId: string): Promise<{ event: string; carrier: Record<string, string> }[]> {
  const { events } = await stack.temporal.client.workflow.getHandle(workflowId).fetchHistory();
  return (events ?? []).flatMap((event) =>
    Object.entries(event).flatMap(([name, attributes]) => {
      const header = name.endsWith('EventAttributes')
        ? (attributes as { header?: { fields?: Record<string, Payload> } } | null)?.header?.fields?.[TRACE_HEADER]
        : undefined;
      return header
        ? [
            {
              event: name.replace('EventAttributes', ''),
              carrier: defaultPayloadConverter.fromPayload<Record<string, string>>(header),
            },
          ]
        : [];
    }),
  );
}

/** Every header name that is not the W3C trace context's. */
const beyondTraceContext = (carrier: Record<string, string>): string[] =>
  Object.keys(carrier).filter((name) => name !== 'traceparent' && name !== 'tracestate');

const payoutBody = (externalId: string) =>
  JSON.stringify({ externalId, amount: 12.5, pixKey: '52998224725', keyType: 'CPF' });

test("a merchant's request with a valid key continues the merchant's trace; its baggage reaches neither the provider nor Temporal's headers", async () => {
  const caller = callerSpan();
  const externalId = newExternalId('traced-baggage');
  const answer = await fetch(`${stack.apiUrl}/v1/payouts`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${stack.config.ENGINE_API_KEYS[0]?.secret ?? ''}`,
      'content-type': 'application/json',
      traceparent: caller.traceparent,
      baggage: `session=${secret}`,
    },
    body: payoutBody(externalId),
  });
  expect(answer.status).toBe(202);
  await waitForPayout(stack, externalId, ['COMPLETED']);

  const server = await serverSpanOf(caller);
  expect({ name: server.name, traceId: server.traceId, parentSpanId: server.parentSpanId }).toEqual({
    name: 'POST /v1/payouts',
    traceId: caller.traceId,
    parentSpanId: caller.spanId,
  });
  // The worker's provider calls for this payout carry the merchant's trace, and nothing else of the merchant's.
  const provider = stack.provider?.requests ?? [];
  expect(
    provider
      .filter((request) => String(request.headers.traceparent).includes(caller.traceId))
      .map((request) => `${request.method} ${request.path}`),
  ).toContain(`POST ${WITHDRAW}`);
  expect(
    provider.filter(
      (request) => request.headers.baggage !== undefined || JSON.stringify(request.headers).includes(secret),
    ),
  ).toEqual([]);
  // Temporal's headers hold the trace context and nothing more: the start the merchant's trace (the sandbox's callback signals in a trace of its own).
  const headers = await traceHeaders(payoutWorkflowId(externalId));
  expect(headers.find(({ event }) => event === 'workflowExecutionStarted')?.carrier.traceparent).toContain(
    caller.traceId,
  );
  expect(headers.filter(({ carrier }) => beyondTraceContext(carrier).length > 0)).toEqual([]);
}, 60_000);

describe('a request without a valid API key starts a trace of its own, linked to the caller, not parented by it', () => {
  const unauthenticated: [string, (headers: Record<string, string>) => Promise<Response>][] = [
    ['the checkout page', (headers) => fetch(`${stack.apiUrl}/checkout/any-payment?token=none`, { headers })],
    [
      "the checkout's pay call",
      (headers) =>
        fetch(`${stack.apiUrl}/checkout/any-payment/pay`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{}',
        }),
    ],
    [
      "the Temporal UI's codec URL",
      (headers) =>
        fetch(`${stack.apiUrl}/codec/t/${codecToken}/decode`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{"payloads":[]}',
        }),
    ],
    [
      'the codec with an API key (a door of its own, not the merchant API)',
      (headers) =>
        fetch(`${stack.apiUrl}/codec/decode`, {
          method: 'POST',
          headers: {
            ...headers,
            authorization: `Bearer ${stack.config.ENGINE_API_KEYS[0]?.secret ?? ''}`,
            'content-type': 'application/json',
          },
          body: '{"payloads":[]}',
        }),
    ],
    [
      'a /v1 call with a wrong key',
      (headers) =>
        fetch(`${stack.apiUrl}/v1/payouts`, {
          method: 'POST',
          headers: { ...headers, authorization: 'Bearer not-a-key', 'content-type': 'application/json' },
          body: payoutBody('never'),
        }),
    ],
  ];

  test.each(unauthenticated)('%s', async (_door, send) => {
    const caller = callerSpan();
    await send({ traceparent: caller.traceparent, baggage: `session=${secret}` });
    const server = await serverSpanOf(caller);
    expect({
      traceId: server.traceId === caller.traceId ? "the caller's" : 'its own',
      parentSpanId: server.parentSpanId,
      links: server.links,
    }).toEqual({
      traceId: 'its own',
      parentSpanId: '',
      links: [{ traceId: caller.traceId, spanId: caller.spanId }],
    });
  });

  test("a provider callback: its signal carries the callback's own trace and no baggage, and its span links the caller and the payout's trace", async () => {
    const externalId = newExternalId('traced-callback');
    // No worker meanwhile: the payout waits for its callback, so the signal lands whatever the machine's speed.
    await stack.stopWorker();
    try {
      expect((await stack.api('POST', '/v1/payouts', JSON.parse(payoutBody(externalId)))).status).toBe(202);
      const caller = callerSpan();
      const body = withdrawalCallbackBody({
        transactionId: 'wd_1',
        externalId,
        status: 'COMPLETED',
        amount: 12.5,
        fee: 0.8,
        total: 13.3,
      });
      const signed = signWebhook(stack.config.WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000));
      const answer = await postSignedWithdrawalCallback(stack.apiUrl, body, signed, {
        traceparent: caller.traceparent,
        baggage: `session=${secret}`,
      });
      expect(answer.status).toBe(200);
      const server = await serverSpanOf(caller);
      expect({
        traceId: server.traceId === caller.traceId ? "the caller's" : 'its own',
        parentSpanId: server.parentSpanId,
      }).toEqual({ traceId: 'its own', parentSpanId: '' });
      // The caller's span, and the span that started the payout's workflow (trace-links.ts).
      expect(server.links).toHaveLength(2);
      expect(server.links[0]).toEqual({ traceId: caller.traceId, spanId: caller.spanId });
      const signal = (await traceHeaders(payoutWorkflowId(externalId))).find(
        ({ event }) => event === 'workflowExecutionSignaled',
      );
      expect(signal?.carrier).toEqual({ traceparent: expect.stringContaining(server.traceId) as unknown });
    } finally {
      await stack.startWorker();
    }
    // Its payout goes on as any would: settled before a later test answers the provider's next withdrawal itself.
    await waitForPayout(stack, externalId, ['COMPLETED']);
  }, 60_000);
});

test('a workflow started by another client with baggage in its trace header schedules its activities with the trace context alone', async () => {
  const caller = callerSpan();
  const withBaggage: WorkflowClientInterceptor = {
    start: (input, next) =>
      next({
        ...input,
        headers: {
          ...input.headers,
          [TRACE_HEADER]: defaultPayloadConverter.toPayload({
            traceparent: caller.traceparent,
            baggage: `session=${secret}`,
          }),
        },
      }),
  };
  const client = new Client({
    connection: stack.temporal.client.connection,
    namespace: stack.config.TEMPORAL_NAMESPACE,
    dataConverter: createDataConverter(stack.config),
    interceptors: { workflow: [withBaggage] },
  });
  const externalId = newExternalId('traced-started-elsewhere');
  // The first (local) attempt is answered 503: the retry is an activity the workflow schedules, with a header in history.
  stack.provider?.answerNext(WITHDRAW, jsonAnswer(503, { code: 'SERVICE_UNAVAILABLE', message: 'try again' }));
  const request = payoutRequestSchema.parse({
    externalId,
    method: 'pix_key',
    amount: 12.5,
    pixKey: '52998224725',
    keyType: 'CPF',
  });
  expect(
    await startPayoutWorkflow(
      client,
      payoutInput(request, payoutTiming(stack.config)),
      stack.config.TEMPORAL_TASK_QUEUE,
    ),
  ).toBe('started');
  await waitForPayout(stack, externalId, ['COMPLETED']);

  const scheduled = (await traceHeaders(payoutWorkflowId(externalId))).filter(
    ({ event }) => event === 'activityTaskScheduled',
  );
  expect(scheduled.length).toBeGreaterThan(0);
  expect(
    scheduled.map(({ carrier }) => ({
      beyond: beyondTraceContext(carrier),
      traced: carrier.traceparent?.includes(caller.traceId),
    })),
  ).toEqual(scheduled.map(() => ({ beyond: [], traced: true })));
  expect((stack.provider?.requests ?? []).filter((request) => request.headers.baggage !== undefined)).toEqual([]);
}, 60_000);

test("the process's propagator writes the trace context alone, whatever OTEL_PROPAGATORS asks", () => {
  const caller = callerSpan();
  const active = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: caller.traceId,
    spanId: caller.spanId,
    traceFlags: TraceFlags.SAMPLED,
  });
  const carrier: Record<string, string> = {};
  propagation.inject(
    propagation.setBaggage(active, propagation.createBaggage({ session: { value: secret } })),
    carrier,
  );
  expect(carrier).toEqual({ traceparent: caller.traceparent });
  expect(propagation.fields()).toEqual(['traceparent', 'tracestate']);
});
