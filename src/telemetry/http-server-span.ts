/**
 * The engine API's server span: one per request, the parent of everything the request does (the workflow
 * start, its signals and updates). Named by the route's template once it is known, never by the path:
 * paths carry ids and the codec's token. A `traceparent` a caller sends is honoured (W3C Trace Context),
 * so a merchant's own trace can go on into ours.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';

export const ENGINE_TRACER = 'payout-engine';

export function httpServerSpans(): RequestHandler {
  const tracer = trace.getTracer(ENGINE_TRACER);
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.scheme': req.protocol } }, parent);
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
