/**
 * What the trace backend receives of a span that recorded personal data: the SDK's own provider and in-memory
 * exporter behind the engine's redacting processor. Every string attribute (the span's, its events', its
 * links'), the status message and an exception's message and stack trace are redacted as log lines are.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { RedactingSpanProcessor } from '../../src/telemetry/redacting-span-processor';

const refusal = 'Chave PIX 123.456.789-09 de maria@example.com recusada';

test('a span that recorded a refusal quoting a key and an e-mail is exported with them masked, its shape kept', () => {
  const exported = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new RedactingSpanProcessor(new SimpleSpanProcessor(exported))],
  });
  const tracer = provider.getTracer('test');
  const linked = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 };
  const span = tracer.startSpan('RunActivity:submitWithdrawal', {
    attributes: {
      temporalWorkflowId: 'payout:order-7',
      'provider.message': refusal,
      pix_key: 'maria@example.com',
      attempts: 2,
      'retry.reasons': [refusal, 'timeout'],
    },
    links: [{ context: linked, attributes: { note: refusal } }],
  });
  span.recordException(new Error(refusal));
  span.setStatus({ code: SpanStatusCode.ERROR, message: refusal });
  span.end();

  const [sent] = exported.getFinishedSpans();
  const masked = 'Chave PIX [document] de [email] recusada';
  expect(sent?.attributes).toEqual({
    temporalWorkflowId: 'payout:order-7',
    'provider.message': masked,
    pix_key: '[redacted]',
    attempts: 2,
    'retry.reasons': [masked, 'timeout'],
  });
  expect(sent?.status).toEqual({ code: SpanStatusCode.ERROR, message: masked });
  const exception = sent?.events.find((event) => event.name === 'exception')?.attributes ?? {};
  expect(exception['exception.message']).toBe(masked);
  expect(exception['exception.stacktrace']).toMatch(/^Error: Chave PIX \[document\] de \[email\] recusada\n\s+at /);
  expect(sent?.links).toEqual([{ context: linked, attributes: { note: masked } }]);
  expect({ name: sent?.name, traceId: sent?.spanContext().traceId, ended: sent?.ended }).toEqual({
    name: 'RunActivity:submitWithdrawal',
    traceId: span.spanContext().traceId,
    ended: true,
  });
});
