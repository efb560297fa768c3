/**
 * The one place that sends requests to the provider: base URL, both credential schemes, a timeout on
 * every call, response bodies parsed by the contract's schemas, and every failure turned into one of
 * the typed errors of ./errors. It never retries a request that could move money: a timeout there is
 * reported as ambiguous and left to the caller, who reconciles first. Only a 401 is retried, once,
 * after a fresh login, because the provider refused it before acting.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { request } from 'undici';
import type { z } from 'zod';
import { providerCallDuration, providerCalls } from '../metrics/engine-metrics';
import { networkErrorCode } from '../net/network-error-code';
import { loginResponseSchema } from './schemas/auth';
import { readProviderErrorAnswer } from './schemas/errors';
import {
  AmbiguousOutcomeError,
  AuthenticationError,
  BadResponseError,
  ConnectionError,
  errorForStatus,
  type PaymentApiError,
} from './errors';

export type AuthScheme = 'none' | 'bearer' | 'client-headers';

export interface RequestSpec<S extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  auth: AuthScheme;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  response: S;
  /** A POST that can create money movement: a lost answer is ambiguous, never silently retried. */
  movesMoney: boolean;
  /** The endpoint's name in the table (`withdraw`, `checkTransaction`): the metrics' label, never the filled path. */
  endpoint?: string;
}

type CallOutcome = 'ok' | 'client_error' | 'server_error' | 'timeout' | 'connection' | 'bad_response';

function observeCall(spec: { endpoint?: string }, outcome: CallOutcome, startedAt: number): void {
  const labels = { endpoint: spec.endpoint ?? 'other', outcome };
  providerCalls.inc(labels);
  providerCallDuration.observe(labels, (performance.now() - startedAt) / 1000);
}

export interface TransportOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  /** Refresh the JWT this long before its `exp`. */
  tokenRefreshMarginMs?: number;
  now?: () => number;
}

interface CachedToken {
  value: string;
  expiresAt: number;
}

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Reads `exp` from a JWT without verifying it: the provider verifies; we only need to know when to refresh. */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export class HttpTransport {
  private token: CachedToken | undefined;
  private pendingLogin: Promise<CachedToken> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: TransportOptions) {
    this.now = options.now ?? Date.now;
  }

  async send<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    try {
      return await this.sendOnce(spec, false);
    } catch (error) {
      if (error instanceof AuthenticationError && spec.auth === 'bearer' && error.details.status === 401) {
        this.token = undefined;
        return this.sendOnce(spec, true);
      }
      throw error;
    }
  }

  private async sendOnce<S extends z.ZodType>(spec: RequestSpec<S>, freshLogin: boolean): Promise<z.output<S>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (spec.auth === 'client-headers') {
      headers.ci = this.options.clientId;
      headers.cs = this.options.clientSecret;
    } else if (spec.auth === 'bearer') {
      headers.authorization = `Bearer ${(await this.bearerToken(freshLogin)).value}`;
    }
    const url = new URL(this.options.baseUrl + spec.path);
    for (const [key, value] of Object.entries(spec.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));

    const details = { method: spec.method, path: spec.path };
    let status: number;
    let text: string;
    const startedAt = performance.now();
    // The call's client span (a no-op with tracing off), named by the endpoint, never by the filled path; its context goes along (traceparent).
    const span = trace.getTracer('payout-engine').startSpan(`${spec.method} ${spec.endpoint ?? 'payment-api'}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': spec.method,
        'server.address': url.hostname,
        ...(spec.endpoint ? { 'payment_api.endpoint': spec.endpoint } : {}),
      },
    });
    propagation.inject(trace.setSpan(context.active(), span), headers);
    try {
      // undici's request rather than fetch: the same client without the WHATWG streams, a third of the CPU per call.
      const response = await request(url, {
        method: spec.method,
        headers,
        ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = response.statusCode;
      text = await response.body.text();
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    } catch (error) {
      const outcome = error instanceof DOMException && error.name === 'TimeoutError' ? 'timeout' : 'connection';
      span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      observeCall(spec, outcome, startedAt);
      throw this.transportFailure(error, spec, details);
    } finally {
      span.end();
    }
    if (status >= 200 && status < 300) {
      let json: unknown;
      try {
        json = text.length > 0 ? JSON.parse(text) : {};
      } catch {
        observeCall(spec, 'bad_response', startedAt);
        throw new BadResponseError(`${spec.method} ${spec.path}: response is not JSON`, { ...details, status });
      }
      const parsed = spec.response.safeParse(json);
      if (!parsed.success) {
        observeCall(spec, 'bad_response', startedAt);
        const where = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
        throw new BadResponseError(`${spec.method} ${spec.path}: response does not match the contract (${where})`, {
          ...details,
          status,
        });
      }
      observeCall(spec, 'ok', startedAt);
      return parsed.data;
    }
    observeCall(spec, status >= 500 ? 'server_error' : 'client_error', startedAt);
    // The provider's words, however it spells them (a JSON message or error, a plain or HTML body): nothing is required.
    throw errorForStatus(status, readProviderErrorAnswer(text), details);
  }

  private transportFailure(
    error: unknown,
    spec: RequestSpec<z.ZodType>,
    details: { method: string; path: string },
  ): PaymentApiError {
    const code = networkErrorCode(error);
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    if (code && NOT_SENT_CODES.has(code)) {
      return new ConnectionError(`${spec.method} ${spec.path}: could not connect (${code})`, details);
    }
    const what = timedOut
      ? `no answer within ${this.options.timeoutMs} ms`
      : `connection lost (${code ?? (error instanceof Error ? error.message : 'unknown')})`;
    if (spec.movesMoney) {
      return new AmbiguousOutcomeError(`${spec.method} ${spec.path}: ${what}; the provider may have acted`, details);
    }
    return new ConnectionError(`${spec.method} ${spec.path}: ${what}`, details);
  }

  private async bearerToken(forceLogin: boolean): Promise<CachedToken> {
    const margin = this.options.tokenRefreshMarginMs ?? 60_000;
    if (!forceLogin && this.token && this.token.expiresAt - margin > this.now()) return this.token;
    // Concurrent callers share one login.
    this.pendingLogin ??= this.fetchToken().finally(() => {
      this.pendingLogin = undefined;
    });
    this.token = await this.pendingLogin;
    return this.token;
  }

  /** Logs in now (endpoint 1) and caches the token. */
  async login(): Promise<z.output<typeof loginResponseSchema>> {
    const { response } = await this.fetchToken();
    return response;
  }

  private async fetchToken(): Promise<CachedToken & { response: z.output<typeof loginResponseSchema> }> {
    const result = await this.sendOnce(
      {
        method: 'POST',
        path: '/api/auth/login',
        auth: 'none',
        body: { client_id: this.options.clientId, client_secret: this.options.clientSecret },
        response: loginResponseSchema,
        movesMoney: false,
        endpoint: 'login',
      },
      false,
    );
    // Without an `exp` claim, assume a short life rather than a long one.
    const token = {
      value: result.token,
      expiresAt: jwtExpiry(result.token) ?? this.now() + 5 * 60_000,
      response: result,
    };
    this.token = token;
    return token;
  }
}
