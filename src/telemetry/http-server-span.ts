/**
 * The engine API's server span: one per request, the parent of everything the request does (the workflow
 * start, its signals and updates). Named by the route's template once it is known, never by the path:
 * paths carry ids and the codec's token.
 *
 * A caller's `traceparent` (W3C Trace Context) is continued only when the caller is one we know: a merchant
 * calling the API with a valid key (`continuesCallerTrace`). Anyone else (the provider's callbacks, a
 * buyer's browser at the checkout, the codec's callers, a wrong key) gets a trace of its own, with at most a
 * link to the span it named: an outsider chooses neither our trace ids nor whether we sample. Nothing else
 * of the caller's context is taken: no `baggage`, and a link carries no `tracestate`.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Link,
  type SpanContext,
} from '@opentelemetry/api';
import type { Request, RequestHandler } from 'express';

export const ENGINE_TRACER = 'payout-engine';

export interface ServerSpanOptions {
  /** Whether this request may continue its caller's trace: a known caller's only. */
  continuesCallerTrace(req: Request): boolean;
}

/** The span the caller names in its `traceparent`, and nothing else of its context. */
function callerSpanContext(req: Request): SpanContext | undefined {
  const named = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, req.headers));
  return named && trace.isSpanContextValid(named)
    ? { traceId: named.traceId, spanId: named.spanId, traceFlags: named.traceFlags, isRemote: true }
    : undefined;
}

export function httpServerSpans(options: ServerSpanOptions): RequestHandler {
  const tracer = trace.getTracer(ENGINE_TRACER);
  return (req, res, next) => {
    const caller = callerSpanContext(req);
    const continued = caller !== undefined && options.continuesCallerTrace(req);
    const parent = continued ? trace.setSpanContext(ROOT_CONTEXT, caller) : ROOT_CONTEXT;
    const links: Link[] = caller && !continued ? [{ context: caller }] : [];
    const span = tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.scheme': req.protocol }, links },
      parent,
    );
    res.once('close', () => {
      const template: unknown = (req.route as { path?: unknown } | undefined)?.path;
      if (typeof template === 'string') {
        const route = `${req.baseUrl}${template}`;
        span.updateName(`${req.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
