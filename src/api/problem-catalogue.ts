/**
 * Every error code the engine API answers, with its HTTP status, its title (RFC 9457's short summary, the same
 * for every occurrence) and when it is answered. The one list: `ApiError` takes only these codes (a new code
 * fails the type check until it is added here), the OpenAPI document's Problem schema enumerates them, and
 * docs/problems.md is generated from it (test/docs/problem-table.test.ts fails when the two disagree).
 */

interface ProblemEntry {
  status: number;
  title: string;
  when: string;
}

export const PROBLEM_CATALOGUE = {
  // 400: the request cannot be read as sent.
  VALIDATION_FAILED: {
    status: 400,
    title: 'The request is invalid',
    when: 'A body, query or path parameter that does not fit its schema; every refused field is named in issues[]',
  },
  MALFORMED_JSON: {
    status: 400,
    title: 'The body is not valid JSON',
    when: 'A JSON body (or a callback body) that does not parse',
  },
  REQUEST_ABORTED: {
    status: 400,
    title: 'The body ended early',
    when: 'The connection closed before the body reached its announced length',
  },
  BAD_CONTENT_LENGTH: {
    status: 400,
    title: 'The body does not have its announced length',
    when: 'Content-Length disagrees with the bytes sent',
  },
  BAD_REQUEST: { status: 400, title: 'The body could not be read', when: 'Any other refusal of the body parser' },
  // 401 and 403: who is calling.
  UNAUTHORIZED: {
    status: 401,
    title: 'Missing or invalid credential',
    when: 'No API key, or one the engine does not know (the codec: nor its token)',
  },
  INVALID_SIGNATURE: {
    status: 401,
    title: 'Callback signature rejected',
    when: 'A provider callback whose signature is missing, stale or wrong, under PROVIDER_CALLBACK_SIGNATURES',
  },
  INVALID_CHECKOUT_TOKEN: {
    status: 401,
    title: 'The checkout link is not valid',
    when: "A checkout call whose token is not this payment's",
  },
  FORBIDDEN: {
    status: 403,
    title: 'Not allowed with this credential',
    when: "The codec's token used to encode (it only decodes)",
  },
  INSUFFICIENT_SCOPE: {
    status: 403,
    title: 'The API key lacks a scope',
    when: "An API key without the scope the operation's security requirement names (named in detail and in WWW-Authenticate)",
  },
  // 404 and 405: what is asked for does not exist.
  NOT_FOUND: { status: 404, title: 'No such route', when: 'A path the API does not serve' },
  PAYOUT_NOT_FOUND: { status: 404, title: 'Unknown payout', when: 'No payout has this externalId' },
  BATCH_NOT_FOUND: { status: 404, title: 'Unknown batch', when: 'No batch has this batchId' },
  CHARGE_NOT_FOUND: { status: 404, title: 'Unknown charge', when: 'No charge has this externalId' },
  CARD_PAYMENT_NOT_FOUND: { status: 404, title: 'Unknown card payment', when: 'No card payment has this externalId' },
  INFRACTION_NOT_FOUND: { status: 404, title: 'Unknown infraction', when: 'No MED sync has seen this infraction yet' },
  ENDPOINT_NOT_FOUND: { status: 404, title: 'Unknown webhook endpoint', when: 'No webhook endpoint has this id' },
  EVENT_NOT_FOUND: { status: 404, title: 'Unknown event', when: 'No event delivered to an endpoint has this id' },
  METHOD_NOT_ALLOWED: {
    status: 405,
    title: 'Method not allowed',
    when: 'The path exists under other methods, listed in Allow',
  },
  // 409 and 410: the resource is in another state.
  PAYOUT_CONFLICT: {
    status: 409,
    title: 'A different payout has this externalId',
    when: 'A payout request under an externalId already used with other fields',
  },
  PAYOUT_IN_BATCH: {
    status: 409,
    title: 'The payout belongs to a batch',
    when: 'A single payout under the externalId of a batch item',
  },
  PAYOUT_NEVER_SENT: {
    status: 409,
    title: 'Nothing was sent to recheck',
    when: 'A recheck of a payout whose workflow was terminated before its submission was claimed',
  },
  PAYOUT_NOT_CANCELLABLE: {
    status: 409,
    title: 'The payout cannot be cancelled',
    when: 'A cancel of a payout already submitted or final',
  },
  BATCH_CONFLICT: {
    status: 409,
    title: 'A different batch has this batchId',
    when: 'A batch under a batchId already used with other items',
  },
  BATCH_FINISHED: {
    status: 409,
    title: 'The batch has finished',
    when: 'A cancel, pause or resume of a finished batch',
  },
  BATCH_CANCELLED: { status: 409, title: 'The batch was cancelled', when: 'A pause or resume of a cancelled batch' },
  CHARGE_CONFLICT: {
    status: 409,
    title: 'A different charge has this externalId',
    when: 'A charge request under an externalId already used with other fields',
  },
  CHARGE_UNFINISHED: {
    status: 409,
    title: "The charge's workflow ended without its outcome",
    when: 'The workflow was terminated mid-creation: an operator resets it (docs/operations.md)',
  },
  CARD_PAYMENT_CONFLICT: {
    status: 409,
    title: 'A different card payment has this externalId',
    when: 'A card payment request under an externalId already used with other fields',
  },
  CARD_PAYMENT_NOT_IN_REVIEW: {
    status: 409,
    title: 'The card payment is not in review',
    when: 'A recheck or close of a card payment in another state, or for another payment id',
  },
  CHECKOUT_CLOSED: {
    status: 409,
    title: 'The checkout takes no card',
    when: 'A card sent to a payment already submitted, paid, failed or expired',
  },
  CHECKOUT_EXPIRED: {
    status: 410,
    title: 'The checkout link has expired',
    when: "A checkout call after the link's expiry",
  },
  INFRACTION_NOT_DEFENDABLE: {
    status: 409,
    title: 'The infraction can no longer be defended',
    when: 'A defense of an infraction already defended or closed, or a different defense than the one sent',
  },
  EVENT_CLOSING: {
    status: 409,
    title: "The event's delivery is closing",
    when: 'A redelivery while the last one closes: retry in a moment',
  },
  // 413 and 415: the body's size or type.
  PAYLOAD_TOO_LARGE: {
    status: 413,
    title: 'The body is too large',
    when: 'A body over the limit of its route, or with too many parameters',
  },
  BATCH_TOO_LARGE: {
    status: 413,
    title: 'The batch is too large',
    when: 'More than 100,000 items or CSV rows; nothing stored',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    title: 'Unsupported media type',
    when: 'A body of a type the route does not read, a charset other than UTF-8, a compressed body, or a CSV whose bytes fit no charset it reads',
  },
  // 422: read, but not possible as asked.
  PAYOUT_NOT_PAYABLE: {
    status: 422,
    title: 'The payout cannot be made as requested',
    when: 'A pixKey that does not fit its keyType, a BR Code that does not read or whose amount differs, a wallet not of its network',
  },
  AMOUNT_OUT_OF_RANGE: {
    status: 422,
    title: "The amount is outside the provider's bounds",
    when: "A crypto amount outside the provider's current bounds",
  },
  RAIL_NOT_AVAILABLE: {
    status: 422,
    title: 'The rail is off',
    when: "A payout (or batch item) on a rail this engine does not offer now (crypto without the provider's route)",
  },
  BATCH_EMPTY: {
    status: 422,
    title: 'The batch has no items',
    when: 'A batch without items, or a CSV with only its header',
  },
  BATCH_INVALID: {
    status: 422,
    title: 'Rows of the batch are invalid',
    when: 'Bad rows, each named in rows[]; nothing started',
  },
  CHARGE_NOT_ACCEPTABLE: {
    status: 422,
    title: 'The charge cannot be made as requested',
    when: 'A payer document whose check digits do not match',
  },
  CHARGE_FAILED: {
    status: 422,
    title: 'The provider refused the charge',
    when: 'The provider refused to create the charge (its reason in detail)',
  },
  CARD_PAYMENT_INVALID: {
    status: 422,
    title: 'The card payment cannot be made as requested',
    when: 'A document whose check digits do not match, a phone in no accepted form, a blank name',
  },
  THREE_DS_REQUIRED: {
    status: 422,
    title: "The payment needs the provider's 3DS authentication",
    when: 'A checkout pay call without 3DS data where the provider requires it: pay through the checkout page, which runs it',
  },
  CARD_INVALID: {
    status: 422,
    title: 'Check the card details',
    when: 'A card number that fails its check digit, an expired card, a blank name',
  },
  DEFENSE_REFUSED: {
    status: 422,
    title: 'The provider refused the defense',
    when: 'The provider refused the infraction defense (its reason in detail)',
  },
  ENDPOINT_NOT_ACCEPTABLE: {
    status: 422,
    title: 'The webhook endpoint cannot be registered',
    when: 'A URL with credentials or a fragment, a host that is not a public address, a port or scheme not allowed',
  },
  TOO_MANY_ENDPOINTS: {
    status: 422,
    title: 'Too many webhook endpoints',
    when: 'The limit of registered endpoints is reached: delete one first',
  },
  INVALID_FILTER: {
    status: 422,
    title: 'The filter cannot be answered',
    when: 'A list (payouts, charges, card payments, infractions) or payout summary whose createdTo is not after createdFrom, whose to is before from, spanning more than 366 days, or in a time zone the engine does not know',
  },
  INVALID_CURSOR: {
    status: 422,
    title: 'The cursor is not one this API gave',
    when: 'A list cursor that is not the nextCursor of a previous page',
  },
  // 429: too many requests.
  RATE_LIMITED: {
    status: 429,
    title: 'Too many requests',
    when: "Over the per-minute limit of the caller (API key, or client address); retry after Retry-After's seconds",
  },
  // 500 and 503: the engine's side.
  INTERNAL: {
    status: 500,
    title: 'Internal error',
    when: 'A failure the engine did not foresee (logged with the request id)',
  },
  TEMPORAL_UNAVAILABLE: {
    status: 503,
    title: 'The workflow service is unavailable',
    when: 'Temporal did not answer; retry after Retry-After',
  },
  WORKER_UNAVAILABLE: {
    status: 503,
    title: 'No worker answered',
    when: 'No worker answered a query in time; retry after Retry-After',
  },
  UPDATE_NOT_ANSWERED: {
    status: 503,
    title: 'The workflow did not answer in time',
    when: 'An update not answered in time; the request may still take effect: send it again',
  },
  PROVIDER_UNAVAILABLE: {
    status: 503,
    title: 'The payment provider is unavailable',
    when: "The provider (its crypto fees, its security module's key) could not be read; retry after Retry-After",
  },
  STORE_UNAVAILABLE: {
    status: 503,
    title: "The engine's database is unavailable",
    when: "The engine's own database did not answer (a failover); retry after Retry-After",
  },
  BATCH_INSERT_INTERRUPTED: {
    status: 503,
    title: 'Storing the batch was interrupted',
    when: 'Nothing was stored: send the same request again',
  },
} as const satisfies Record<string, ProblemEntry>;

export type ProblemCode = keyof typeof PROBLEM_CATALOGUE;
export type ProblemStatus<C extends ProblemCode> = (typeof PROBLEM_CATALOGUE)[C]['status'];
/** The codes answered with `status`: what a helper that always answers one status may take. */
export type ProblemCodeOf<S extends number> = {
  [C in ProblemCode]: ProblemStatus<C> extends S ? C : never;
}[ProblemCode];

export const PROBLEM_CODES = Object.keys(PROBLEM_CATALOGUE) as [ProblemCode, ...ProblemCode[]];

/**
 * A problem's `type`: a URN per code, not a URL. The engine runs on each merchant's own host, so no URL is the
 * same for every installation, and a type must never change; RFC 9457 lets a type be a URI that is not
 * fetched (clients compare it, they do not dereference it). Each is documented in docs/problems.md and on /docs.
 */
export function problemType(code: ProblemCode): string {
  return `urn:payout-engine:problem:${code.toLowerCase().replace(/_/g, '-')}`;
}
