/**
 * Spans as they leave the process, redacted as log lines are (src/logging/redaction.ts, the one redactor):
 * every string attribute of the span, of its events and of its links, and its status message. Temporal's
 * interceptors record a failure's message and stack trace on the span (status, `exception` event), and a
 * provider's message may quote a PIX key, a document or an e-mail; the payload codec and the failure
 * converter keep those out of Temporal's history, and this keeps them out of the trace backend. Long text
 * is cut as in logs (MAX_LOGGED_TEXT): a stack trace keeps its first frames.
 *
 * It wraps the processor that exports (the batch processor), so every span passes here: the API's and
 * the activities' spans, and the workflows' spans that the worker's sink hands over (makeWorkflowExporter).
 */
import type { Attributes, Context, Link, SpanStatus } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { scrub, scrubText } from '../logging/redaction';

/**
 * scrub keeps the shape of a flat record of strings, numbers, booleans and their arrays: attributes come back as
 * attributes. Copied first: a workflow's span may come from another realm (the workflow's context), whose objects
 * scrub would pass as class instances.
 */
const redactAttributes = (attributes: Attributes): Attributes => scrub({ ...attributes }) as Attributes;

const redactStatus = (status: SpanStatus): SpanStatus =>
  status.message === undefined ? status : { ...status, message: scrubText(status.message) };

const redactEvent = (event: TimedEvent): TimedEvent =>
  event.attributes ? { ...event, attributes: redactAttributes(event.attributes) } : event;

const redactLink = (link: Link): Link =>
  link.attributes ? { ...link, attributes: redactAttributes(link.attributes) } : link;

/** A copy of the span for the exporter: the recorded span itself stays as it was. */
export function redactedSpan(span: ReadableSpan): ReadableSpan {
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    ...(span.parentSpanId === undefined ? {} : { parentSpanId: span.parentSpanId }),
    startTime: span.startTime,
    endTime: span.endTime,
    status: redactStatus(span.status),
    attributes: redactAttributes(span.attributes),
    links: span.links.map(redactLink),
    events: span.events.map(redactEvent),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationLibrary: span.instrumentationLibrary,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

export class RedactingSpanProcessor implements SpanProcessor {
  constructor(private readonly exporting: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.exporting.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    this.exporting.onEnd(redactedSpan(span));
  }

  forceFlush(): Promise<void> {
    return this.exporting.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.exporting.shutdown();
  }
}
