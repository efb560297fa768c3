/**
 * OpenTelemetry traces, on when the standard variables name an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, and not `OTEL_SDK_DISABLED=true`).
 * Off, nothing of the SDK is loaded: the spans the engine opens itself (http-server-span.ts, the provider
 * client) go to @opentelemetry/api's no-op tracer, and no Temporal interceptor is added.
 */
import type { Tracing, TracedService } from './tracing-contract';

export type { Tracing, TracedService };

type Environment = Record<string, string | undefined>;

export function tracingRequested(env: Environment = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** undefined when tracing is off; the SDK module is imported only when it is on. */
export function startTracing(service: TracedService, env: Environment = process.env): Tracing | undefined {
  if (!tracingRequested(env)) return undefined;
  // A require at the call, not an import at the top: with tracing off the SDK's modules are never read.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startOtelSdk } = require('./otel-sdk') as typeof import('./otel-sdk');
  return startOtelSdk(service);
}
