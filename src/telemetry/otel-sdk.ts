/**
 * The OpenTelemetry SDK as the engine runs it, imported by tracing.ts only when tracing is on. Most follows
 * the standard variables: the endpoint and headers (OTEL_EXPORTER_OTLP_*), the batching (OTEL_BSP_*), the
 * sampler (OTEL_TRACES_SAMPLER), OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES over the service name given
 * here. Spans leave as OTLP/HTTP with JSON bodies (`http/json`), which Jaeger, Tempo and the OpenTelemetry
 * Collector take, redacted on their way out (redacting-span-processor.ts).
 *
 * Two things do not follow the variables. The propagator is W3C Trace Context alone (OTEL_PROPAGATORS is not
 * read): `baggage` is what a caller chooses to send, and whatever a propagator carries is sent to the
 * provider and kept in Temporal's headers, which the payload codec does not encrypt. And who may continue a
 * trace is the API's to say (http-server-span.ts).
 */
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { envDetectorSync, Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/worker';
import { RedactingSpanProcessor } from './redacting-span-processor';
import { traceparentMemoInterceptor } from './trace-links';
import type { Tracing, TracedService } from './tracing-contract';

export function startOtelSdk(service: TracedService): Tracing {
  const resource = Resource.default()
    .merge(new Resource({ 'service.name': service }))
    .merge(envDetectorSync.detect());
  const spanProcessor = new RedactingSpanProcessor(new BatchSpanProcessor(new OTLPTraceExporter()));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // The global provider, an AsyncLocalStorage context manager and the propagator: what @opentelemetry/api hands out from now on.
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return {
    workflowClientInterceptors: [new OpenTelemetryWorkflowClientInterceptor(), traceparentMemoInterceptor()],
    activityInterceptors: (ctx) => ({
      inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
      outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
    }),
    sinks: { exporter: makeWorkflowExporter(spanProcessor, resource) },
    shutdown: () => provider.shutdown(),
  };
}
