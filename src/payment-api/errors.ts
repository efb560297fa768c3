/**
 * What can go wrong when calling the provider, as one hierarchy the caller can branch on.
 * The one that matters most is `AmbiguousOutcomeError`: the request left and no answer came back, so the
 * provider may or may not have acted. Whoever sees it must find out (transaction check) before acting again.
 */
export type PaymentApiErrorKind =
  | 'invalid-request'
  | 'authentication'
  | 'not-found'
  | 'conflict'
  | 'rate-limited'
  | 'provider-failure'
  | 'ambiguous'
  | 'connection'
  | 'bad-response';

export abstract class PaymentApiError extends Error {
  abstract readonly kind: PaymentApiErrorKind;
  /** Safe to send the same request again without risking a second effect. */
  abstract readonly retryable: boolean;

  constructor(
    message: string,
    readonly details: { method: string; path: string; status?: number; providerCode?: string; providerMessage?: string },
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400/422: the provider refused the request as it is; sending it again changes nothing. */
export class InvalidRequestError extends PaymentApiError {
  readonly kind = 'invalid-request';
  readonly retryable = false;
  constructor(
    message: string,
    details: PaymentApiError['details'],
    readonly issues: readonly { path: string; message: string }[] = [],
  ) {
    super(message, details);
  }
}

/** 401/403 after a fresh login: wrong credentials or a revoked client. */
export class AuthenticationError extends PaymentApiError {
  readonly kind = 'authentication';
  readonly retryable = false;
}

export class NotFoundError extends PaymentApiError {
  readonly kind = 'not-found';
  readonly retryable = false;
}

/** 409: the identifier exists with different content. */
export class ConflictError extends PaymentApiError {
  readonly kind = 'conflict';
  readonly retryable = false;
}

export class RateLimitedError extends PaymentApiError {
  readonly kind = 'rate-limited';
  readonly retryable = true;
}

/** 5xx: the provider says it failed; for money-moving POSTs a retry still goes through reconciliation. */
export class ProviderFailureError extends PaymentApiError {
  readonly kind = 'provider-failure';
  readonly retryable = true;
}

/** Timeout or connection lost after the request was sent: the outcome is unknown. */
export class AmbiguousOutcomeError extends PaymentApiError {
  readonly kind = 'ambiguous';
  readonly retryable = false;
}

/** The connection could not be made: nothing reached the provider. */
export class ConnectionError extends PaymentApiError {
  readonly kind = 'connection';
  readonly retryable = true;
}

/** A 2xx whose body does not match the contract. For a POST, the provider probably acted. */
export class BadResponseError extends PaymentApiError {
  readonly kind = 'bad-response';
  readonly retryable = false;
}
