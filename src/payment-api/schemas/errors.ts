/**
 * The error body (the spec does not show one; this is our choice, see docs/assumptions.md):
 * `{ message, code, issues? }` with `issues` listing each refused field by dotted path.
 */
import { z } from 'zod';

/** Every error code the sandbox answers, with its HTTP status. */
export const PROVIDER_ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  UNAUTHORIZED: 401,
  TOKEN_EXPIRED: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INSUFFICIENT_BALANCE: 422,
  INVALID_PIX_KEY: 422,
  INVALID_QRCODE: 422,
  AMOUNT_MISMATCH: 422,
  RECIPIENT_NOT_FOUND: 422,
  CARD_REFUSED: 422,
  INVALID_PHONE: 422,
  INVALID_AMOUNT: 422,
  INVALID_CARD_TOKEN: 422,
  THREE_DS_REQUIRED: 422,
  THREE_DS_INVALID: 422,
  INFRACTION_NOT_WAITING_PSP: 422,
  CRYPTO_AMOUNT_OUT_OF_RANGE: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ProviderErrorCode = keyof typeof PROVIDER_ERROR_STATUS;
export const PROVIDER_ERROR_CODES = Object.keys(PROVIDER_ERROR_STATUS) as [ProviderErrorCode, ...ProviderErrorCode[]];

export const errorIssueSchema = z.looseObject({
  /** Dotted path of the field, e.g. `payer.email` or `items.0.amount`; empty for the whole body. */
  path: z.string(),
  message: z.string(),
});
export type ErrorIssue = z.infer<typeof errorIssueSchema>;

/** Read tolerantly: an unknown `code` passes, so a real provider's codes do not break parsing. */
export const providerErrorSchema = z.looseObject({
  message: z.string(),
  code: z.union([z.enum(PROVIDER_ERROR_CODES), z.string().min(1)]),
  issues: z.array(errorIssueSchema).optional(),
}).meta({ id: 'ProviderError' });
export type ProviderError = z.infer<typeof providerErrorSchema>;

/** zod issues → the body's `issues`, paths dotted (`payer.email`, `items.0.amount`). */
export function errorIssuesFromZod(error: z.ZodError): ErrorIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** Builds an error body; the HTTP status comes from PROVIDER_ERROR_STATUS[code]. */
export function providerErrorBody(code: ProviderErrorCode, message: string, issues?: ErrorIssue[]): ProviderError {
  return { message, code, ...(issues && issues.length > 0 ? { issues } : {}) };
}
