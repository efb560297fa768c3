/**
 * The error body (the spec does not show one; this is our choice, see docs/assumptions.md):
 * `{ message, code, issues? }` with `issues` listing each refused field by dotted path. The sandbox writes
 * it; the engine reads any provider's error answer tolerantly (`readProviderErrorAnswer`, below).
 */
import { z } from 'zod';
import { printable } from '../../validation/plain-text';

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
export const providerErrorSchema = z
  .looseObject({
    message: z.string(),
    code: z.union([z.enum(PROVIDER_ERROR_CODES), z.string().min(1)]),
    issues: z.array(errorIssueSchema).optional(),
  })
  .meta({ id: 'ProviderError' });
export type ProviderError = z.infer<typeof providerErrorSchema>;

/** zod issues → the body's `issues`, paths dotted (`payer.email`, `items.0.amount`). */
export function errorIssuesFromZod(error: z.ZodError): ErrorIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** Builds an error body; the HTTP status comes from PROVIDER_ERROR_STATUS[code]. */
export function providerErrorBody(code: ProviderErrorCode, message: string, issues?: ErrorIssue[]): ProviderError {
  return { message, code, ...(issues && issues.length > 0 ? { issues } : {}) };
}

/** The longest provider message the engine keeps: it reaches a payout's view, a merchant and the logs. */
export const MAX_PROVIDER_MESSAGE_LENGTH = 300;

/**
 * An error answer as the engine reads it from any provider: every field optional, and one that does not
 * read is dropped rather than failing the rest (`catch`), so a `message` is never lost to an odd `code`.
 */
const providerErrorAnswerSchema = z.looseObject({
  message: z.string().optional().catch(undefined),
  error: z
    .union([z.string(), z.looseObject({ message: z.string().optional().catch(undefined) })])
    .optional()
    .catch(undefined),
  code: z
    .union([z.string().min(1), z.number().transform(String)])
    .optional()
    .catch(undefined),
  issues: z.array(errorIssueSchema).optional().catch(undefined),
});

export interface ProviderErrorAnswer {
  message?: string;
  code?: string;
  issues?: ErrorIssue[];
}

const MARKUP_TAG = /<[^<>]*>/g;
const WHITESPACE_RUN = /\s+/g;

/** How much of a provider's text is read for its words: a gateway's page can be long, its point comes first. */
const READ_TEXT_LENGTH = 16_384;

/** Plain words of a provider's text: no markup, no control characters, one space between words, at most the bound. */
function providerWords(text: string): string | undefined {
  const words = printable(text.slice(0, READ_TEXT_LENGTH).replace(MARKUP_TAG, ' ')).replace(WHITESPACE_RUN, ' ').trim();
  if (words.length === 0) return undefined;
  return words.length > MAX_PROVIDER_MESSAGE_LENGTH ? `${words.slice(0, MAX_PROVIDER_MESSAGE_LENGTH - 1)}…` : words;
}

/**
 * What an error answer says (docs/assumptions.md §1): its `message`, else its `error` (text, or an object's
 * `message`), else the body itself as plain text (a gateway's page, a bare sentence); `code` and `issues`
 * when present. The words are cut to MAX_PROVIDER_MESSAGE_LENGTH.
 */
export function readProviderErrorAnswer(text: string): ProviderErrorAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const message = providerWords(text);
    return message ? { message } : {};
  }
  if (typeof json === 'string') {
    const message = providerWords(json);
    return message ? { message } : {};
  }
  const parsed = providerErrorAnswerSchema.safeParse(json);
  if (!parsed.success) return {};
  const { message, error, code, issues } = parsed.data;
  const said = providerWords(message ?? (typeof error === 'string' ? error : error?.message) ?? '');
  return { ...(said ? { message: said } : {}), ...(code ? { code } : {}), ...(issues ? { issues } : {}) };
}
