/**
 * The response headers the engine sends, as its document states them: X-Request-Id on every answer
 * (request-logging.ts), the rate limit's RateLimit and RateLimit-Policy (IETF draft 7, express-rate-limit) on every
 * answer of a limited route, Retry-After on a 429 and on every 503 problem (errors.ts), and WWW-Authenticate on a
 * 403 for a missing scope (auth.ts).
 */
import { z } from 'zod';
import type { ResponseSpec } from '../openapi/document';
import { problemSchema } from './errors';

/** A response header as the document states it: its name, what it carries, and its value's schema. */
const header = (id: string, description: string, value: z.ZodType = z.string()) =>
  value.meta({ description, header: { id } });

const requestId = header(
  'X-Request-Id',
  "The request's id: the caller's X-Request-Id when it is a plain token, a fresh UUID otherwise; in the engine's logs and in every problem",
);
const rateLimit = header(
  'RateLimit',
  "The caller's limit, what remains of it and the seconds until the window resets (limit=60, remaining=59, reset=42)",
  z.string().optional(),
);
const rateLimitPolicy = header(
  'RateLimit-Policy',
  'The limit and its window in seconds (60;w=60)',
  z.string().optional(),
);
const retryAfter = header(
  'Retry-After',
  'Seconds to wait before sending the same request again',
  z.string().regex(/^\d+$/),
);
const wwwAuthenticate = header(
  'WWW-Authenticate',
  'Bearer error="insufficient_scope", scope="<the scope the operation needs>" (RFC 6750)',
  z.string().optional(),
);

function headersOf(status: number, response: ResponseSpec, limited: boolean): z.ZodObject {
  const problem = response.schema === problemSchema;
  return z.object({
    'X-Request-Id': requestId,
    ...(limited ? { RateLimit: rateLimit, 'RateLimit-Policy': rateLimitPolicy } : {}),
    ...(status === 429 || (status === 503 && problem) ? { 'Retry-After': retryAfter } : {}),
    ...(status === 403 && problem ? { 'WWW-Authenticate': wwwAuthenticate } : {}),
  });
}

/** `responses` with the headers each carries; `limited`: the operation's route is rate limited. */
export function withResponseHeaders(
  responses: Record<number, ResponseSpec>,
  limited: boolean,
): Record<number, ResponseSpec> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      { ...response, headers: headersOf(Number(status), response, limited) },
    ]),
  );
}
