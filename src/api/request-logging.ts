/**
 * Request logs (pino-http, one `http.request` line per answered request) and the request id: the
 * caller's X-Request-Id when it is a plain token, a fresh UUID otherwise, echoed in the answer and
 * kept in the request context for every log line and workflow start that follows.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import { pinoOf, type Logger } from '../logging/logger';
import { scrub } from '../logging/redaction';
import { REQUEST_ID_PATTERN, requestContext } from '../logging/request-context';

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

export function requestLogging(logger: Logger): RequestHandler[] {
  const base = pinoOf(logger);
  const http = pinoHttp({
    ...(base ? { logger: base } : {}),
    genReqId: requestIdOf,
    customProps: () => ({ event: 'http.request' }),
    // After pino-http's own serializers: every header whose name says secret (any signature or credential header) is censored.
    serializers: { req: (req: unknown) => scrub(req), res: (res: unknown) => scrub(res) },
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0] ?? '') },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
  });
  const withContext: RequestHandler = (req, _res, next) => {
    requestContext.run({ requestId: typeof req.id === 'string' ? req.id : String(req.id as number) }, next);
  };
  return [http, withContext];
}
