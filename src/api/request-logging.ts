/**
 * Request logs (pino-http, one `http.request` line per answered request) and the request id: the
 * caller's X-Request-Id when it is a plain token, a fresh UUID otherwise, echoed in the answer and
 * kept in the request context for every log line and workflow start that follows.
 *
 * Requests are serialized here, not by pino's serializer (whose object the redaction cannot walk): the
 * path without its query string (checkout links carry their token there, and merchants' queries may
 * carry documents or keys), the codec token's path segment rewritten (in any case or spelling), and only
 * the headers of an allow-list; a credential header is shown as present, never with its value.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import { pinoOf, type Logger } from '../logging/logger';
import { REDACTED, scrubText } from '../logging/redaction';
import { plainId, requestContext } from '../logging/request-context';

const QUIET_PATHS = new Set(['/healthz', '/readyz']);
/** Headers worth a line: what the client sent and who it says it is. */
const LOGGED_REQUEST_HEADERS = ['content-type', 'content-length', 'user-agent', 'accept', 'origin'] as const;
/** Credential headers: logged as present, never their value. */
const CREDENTIAL_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'ci',
  'cs',
  'x-service-webhook-signature',
] as const;
const LOGGED_RESPONSE_HEADERS = ['content-type', 'content-length', 'retry-after'] as const;
const MAX_HEADER_TEXT = 256;
const MAX_PATH_TEXT = 512;

/** A path segment as a router compares it: percent-decoded (when it decodes) and without regard to case. */
function plainSegment(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '').toLowerCase();
  } catch {
    return (segment ?? '').toLowerCase();
  }
}

/**
 * The segments that are credentials rewritten: the codec token the Temporal UI carries in its URL, the one
 * after `codec/t/`. Express routes ignore case, so `/Codec/t/<token>` is that route too; and wherever those
 * segments stand, in whatever spelling, what follows them is taken for a token.
 */
function withoutSecretSegments(path: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, index) =>
      index >= 2 && plainSegment(segments[index - 1]) === 't' && plainSegment(segments[index - 2]) === 'codec'
        ? REDACTED
        : segment,
    )
    .join('/');
}

function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = plainId(typeof given === 'string' ? given : undefined) ?? randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

const shortText = (value: string, max: number): string =>
  scrubText(value.length > max ? `${value.slice(0, max)}…` : value);

/** The path as logged: no query string or fragment, secret segments rewritten, cut, masked. */
export function loggedPath(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return shortText(withoutSecretSegments(path), MAX_PATH_TEXT);
}

function pickHeaders(
  headers: IncomingHttpHeaders | OutgoingHttpHeaders,
  names: readonly string[],
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (value !== undefined)
      picked[name] = shortText(Array.isArray(value) ? value.join(', ') : String(value), MAX_HEADER_TEXT);
  }
  return picked;
}

type ExpressRequest = IncomingMessage & { originalUrl?: string; ip?: string; id?: unknown };

export function loggedRequest(req: ExpressRequest): Record<string, unknown> {
  const credentials = Object.fromEntries(
    CREDENTIAL_HEADERS.filter((name) => req.headers[name] !== undefined).map((name) => [name, REDACTED]),
  );
  return {
    id: req.id,
    method: req.method,
    path: loggedPath(req.originalUrl ?? req.url ?? ''),
    headers: { ...pickHeaders(req.headers, LOGGED_REQUEST_HEADERS), ...credentials },
    remoteAddress: req.ip ?? req.socket.remoteAddress,
  };
}

export function loggedResponse(res: ServerResponse): Record<string, unknown> {
  return { statusCode: res.statusCode, headers: pickHeaders(res.getHeaders(), LOGGED_RESPONSE_HEADERS) };
}

export function requestLogging(logger: Logger): RequestHandler[] {
  const base = pinoOf(logger);
  const http = pinoHttp({
    ...(base ? { logger: base } : {}),
    genReqId: requestIdOf,
    customProps: () => ({ event: 'http.request' }),
    // The raw request and response reach these serializers (not pino's serialized copies).
    wrapSerializers: false,
    serializers: { req: loggedRequest, res: loggedResponse },
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0] ?? '') },
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
  });
  const withContext: RequestHandler = (req, _res, next) => {
    requestContext.run({ requestId: typeof req.id === 'string' ? req.id : String(req.id as number) }, next);
  };
  return [http, withContext];
}
