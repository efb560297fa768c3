/**
 * The tracing interceptors as bundled into the traced workflow bundle (workflow-source.ts): the Temporal SDK's
 * own, with the workflow context's propagator set to W3C Trace Context alone, as in the engine's processes
 * (otel-sdk.ts). The SDK's interceptors register a tracer provider of their own in the workflow's context,
 * and with it the specification's default propagators, trace context and baggage: baggage a workflow were
 * started with would be copied into the header of every activity, child and signal it sends, kept in
 * Temporal's history in clear.
 *
 * Workflow code: it runs inside the workflow's context and imports nothing with I/O.
 */
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type { WorkflowInterceptors } from '@temporalio/workflow';

export const interceptors = (): WorkflowInterceptors => {
  // Constructed first: the first one registers the SDK's tracer provider, and its propagators, in this workflow's context.
  const inbound = new OpenTelemetryInboundInterceptor();
  const outbound = new OpenTelemetryOutboundInterceptor();
  // Then replaced: @opentelemetry/api keeps the first registration unless it is disabled.
  propagation.disable();
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return { inbound: [inbound], outbound: [outbound], internals: [new OpenTelemetryInternalsInterceptor()] };
};
