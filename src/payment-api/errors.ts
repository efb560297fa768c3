/**
 * What can go wrong when calling the provider, as one hierarchy the caller can branch on. The one that
 * matters most is `AmbiguousOutcomeError`: the request left and no answer came back, so the provider may
 * or may not have acted. Whoever sees it must find out (transaction check) before acting again. Two
 * questions decide what a money-moving request does next (docs/assumptions.md §1): did the provider
 * clearly refuse it (`isClearRefusal`: the payment ends FAILED with the provider's words), and did the
 * provider surely do nothing (`providerDidNothing`: the same request may be sent again)? Anything else may
 * have moved money.
 */
import type { ProviderErrorAnswer } from './schemas/errors';

export interface PaymentApiErrorDetails {
  method: string;
  path: string;
  /** HTTP status, when the provider answered. */
  status?: number;
  /** The provider's error code (`INSUFFICIENT_BALANCE`, ...), when its body had one. */
  providerCode?: string;
}

export abstract class PaymentApiError extends Error {
  constructor(
    message: string,
    readonly details: PaymentApiErrorDetails,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400/422: the provider refused the request as it is; sending it again changes nothing. */
export class InvalidRequestError extends PaymentApiError {
  constructor(
    message: string,
    details: PaymentApiErrorDetails,
    readonly issues: readonly { path: string; message: string }[] = [],
  ) {
    super(message, details);
  }
}

/** 401/403 after a fresh login: wrong credentials, a revoked client, or a gateway in front of the provider. */
export class AuthenticationError extends PaymentApiError {}

/** 404: no such operation. */
export class NotFoundError extends PaymentApiError {}

/** 409: the identifier exists with different content. */
export class ConflictError extends PaymentApiError {}

/** 429: slow down and send again. */
export class RateLimitedError extends PaymentApiError {}

/** 5xx: the provider says it failed; after a money-moving POST that is no proof that nothing happened. */
export class ProviderFailureError extends PaymentApiError {}

/** 503: the provider (or the gateway in front of it) could not take the request now, and did nothing with it. */
export class ServiceUnavailableError extends ProviderFailureError {}

/** Any other 4xx (a gateway's 405, 451, ...): no statement about the operation, so never a refusal of it. */
export class UnexpectedStatusError extends PaymentApiError {}

/** Timeout or connection lost after the request was sent: the outcome is unknown. */
export class AmbiguousOutcomeError extends PaymentApiError {}

/** The connection could not be made: nothing reached the provider. */
export class ConnectionError extends PaymentApiError {}

/** A 2xx whose body does not match the contract. For a POST, the provider probably acted. */
export class BadResponseError extends PaymentApiError {}

/** The engine has no route for this operation (a setting left unset, the spec showing none): nothing was sent. */
export class RouteNotConfiguredError extends PaymentApiError {}

/** The one mapping from an HTTP error answer to the hierarchy; the message is the provider's words, read by `readProviderErrorAnswer`. */
export function errorForStatus(
  status: number,
  body: ProviderErrorAnswer,
  request: { method: string; path: string },
): PaymentApiError {
  const details = { ...request, status, ...(body.code ? { providerCode: body.code } : {}) };
  const message = body.message ?? `HTTP ${status}`;
  if (status === 400 || status === 422) return new InvalidRequestError(message, details, body.issues ?? []);
  if (status === 401 || status === 403) return new AuthenticationError(message, details);
  if (status === 404) return new NotFoundError(message, details);
  if (status === 409) return new ConflictError(message, details);
  if (status === 429) return new RateLimitedError(message, details);
  if (status === 503) return new ServiceUnavailableError(message, details);
  if (status >= 500) return new ProviderFailureError(message, details);
  return new UnexpectedStatusError(message, details);
}

/**
 * 400, 404 or 422 to a request that would create something: the provider refused it as it stands and made
 * nothing, so sending it again changes nothing (an unknown recipient answered 404 or 422, a bad key, a
 * balance too low). A request the client refused before sending it reads the same. Not 409: the provider
 * holds something under that id, which may be this payout sent before.
 */
export function isClearRefusal(error: unknown): error is InvalidRequestError | NotFoundError {
  return error instanceof InvalidRequestError || error instanceof NotFoundError;
}

/**
 * The provider surely did nothing with the request, so the same request may be sent again: it never reached
 * the provider (no connection, no route configured), or the provider turned it away before acting (401/403:
 * our credentials; 429 and 503: come back later; any other 4xx: a gateway's, a statement about the request,
 * never about an operation). Everything else after the request left (a timeout, a reset, 500, 502, 504, a
 * 3xx, a 2xx that does not read, 409) may have moved money.
 */
export function providerDidNothing(error: unknown): boolean {
  return (
    isClearRefusal(error) ||
    error instanceof ConnectionError ||
    error instanceof RouteNotConfiguredError ||
    error instanceof AuthenticationError ||
    error instanceof RateLimitedError ||
    error instanceof ServiceUnavailableError ||
    // Not a 3xx: a provider may answer a POST it has processed with a redirect to the result.
    (error instanceof UnexpectedStatusError && (error.details.status ?? 0) >= 400 && (error.details.status ?? 0) < 500)
  );
}
