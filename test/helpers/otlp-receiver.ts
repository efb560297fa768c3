/** A small OTLP/HTTP trace receiver (JSON bodies, `http/json`): what Jaeger or a collector would take, kept for a test to read. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

const attributeSchema = z.object({ key: z.string(), value: z.object({ stringValue: z.string().optional() }).loose() });
const spanSchema = z
  .object({
    traceId: z.string(),
    spanId: z.string(),
    parentSpanId: z.string().optional(),
    name: z.string(),
    kind: z.number(),
    attributes: z.array(attributeSchema).default([]),
    links: z.array(z.object({ traceId: z.string(), spanId: z.string() }).loose()).default([]),
    events: z
      .array(z.object({ name: z.string(), attributes: z.array(attributeSchema).default([]) }).loose())
      .default([]),
    status: z.object({ code: z.number().optional(), message: z.string().optional() }).loose().optional(),
  })
  .loose();
const exportSchema = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes: z.array(attributeSchema).default([]) }).loose(),
      scopeSpans: z.array(z.object({ spans: z.array(spanSchema) })),
    }),
  ),
});

type Attributes = Record<string, string | undefined>;

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Attributes;
  /** Spans of other traces this one points to. */
  links: { traceId: string; spanId: string }[];
  /** Events (an `exception` with its message and stack trace). */
  events: { name: string; attributes: Attributes }[];
  /** OTLP's codes: 0 unset, 1 ok, 2 error; the message as exported. */
  status: { code: number; message: string };
  /** Every string of the span as it was exported, wherever it sat (names, attributes, events, status, links, trace state). */
  texts: string[];
}

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT names: the exporter posts to `<endpoint>/v1/traces`. */
  endpoint: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

const attributesOf = (attributes: z.infer<typeof attributeSchema>[]): Attributes =>
  Object.fromEntries(attributes.map((attribute) => [attribute.key, attribute.value.stringValue]));

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (
        req.method !== 'POST' ||
        req.url !== '/v1/traces' ||
        !String(req.headers['content-type']).startsWith('application/json')
      ) {
        res.writeHead(415).end();
        return;
      }
      for (const resourceSpans of exportSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')))
        .resourceSpans) {
        const service =
          resourceSpans.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue ??
          '';
        for (const span of resourceSpans.scopeSpans.flatMap((scope) => scope.spans)) {
          spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            links: span.links.map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
            events: span.events.map((event) => ({ name: event.name, attributes: attributesOf(event.attributes) })),
            status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
            texts: stringsIn(span),
          });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
