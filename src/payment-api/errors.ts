/**
 * What can go wrong when calling the provider, as one hierarchy the caller can branch on. The one that
 * matters most is `AmbiguousOutcomeError`: the request left and no answer came back, so the provider may
 * or may not have acted. Whoever sees it must find out (transaction check) before acting again. Only
 * `InvalidRequestError` and `ConflictError` are definite refusals of a money-moving request.
 */
import type { ProviderError } from './schemas/errors';

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

/** 5xx: the provider says it failed; for money-moving POSTs a retry still goes through reconciliation. */
export class ProviderFailureError extends PaymentApiError {}

/** Any other 4xx (a gateway's 405, 451, ...): no statement about the operation, so never a refusal of it. */
export class UnexpectedStatusError extends PaymentApiError {}

/** Timeout or connection lost after the request was sent: the outcome is unknown. */
export class AmbiguousOutcomeError extends PaymentApiError {}

/** The connection could not be made: nothing reached the provider. */
export class ConnectionError extends PaymentApiError {}

/** A 2xx whose body does not match the contract. For a POST, the provider probably acted. */
export class BadResponseError extends PaymentApiError {}

/** The one mapping from an HTTP error answer to the hierarchy. */
export function errorForStatus(status: number, body: Partial<ProviderError>, request: { method: string; path: string }): PaymentApiError {
  const details = { ...request, status, ...(body.code ? { providerCode: body.code } : {}) };
  const message = body.message ?? `HTTP ${status}`;
  if (status === 400 || status === 422) return new InvalidRequestError(message, details, body.issues ?? []);
  if (status === 401 || status === 403) return new AuthenticationError(message, details);
  if (status === 404) return new NotFoundError(message, details);
  if (status === 409) return new ConflictError(message, details);
  if (status === 429) return new RateLimitedError(message, details);
  if (status >= 500) return new ProviderFailureError(message, details);
  return new UnexpectedStatusError(message, details);
}
