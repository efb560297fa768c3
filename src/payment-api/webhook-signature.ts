/**
 * Webhook signatures (the spec names the headers only; the scheme is ours, see docs/assumptions.md):
 *
 *   X-Service-Webhook-Timestamp: <Unix seconds>
 *   X-Service-Webhook-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>[ v1=<...>]
 *
 * One `v1=` value per active secret, so receivers keep verifying while a secret rotates. The timestamp
 * is inside the MAC and checked against a window so a captured callback cannot be replayed later; within
 * the window a ReplayGuard remembers what it accepted, so it cannot be replayed then either.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_TIMESTAMP_HEADER = 'X-Service-Webhook-Timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'X-Service-Webhook-Signature';
/** Unique per event, identical on every retry of that event: receivers de-duplicate by it. */
export const WEBHOOK_ID_HEADER = 'X-Service-Webhook-Id';

export const WEBHOOK_SIGNATURE_SCHEME = 'v1';
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

const SCHEME_PREFIX = `${WEBHOOK_SIGNATURE_SCHEME}=`;
const TIMESTAMP_PATTERN = /^\d{1,12}$/;
/** Between the values of a signature header (spaces, or ", " where Node joined a repeated header): one character
 * each, as the empty parts between two of them are no v1= value and are dropped with the other schemes'. */
const SIGNATURE_SEPARATORS = /[\s,]/;

export type WebhookVerificationFailure = 'missing-headers' | 'bad-timestamp' | 'stale' | 'bad-signature' | 'replayed';
export type WebhookVerification = { ok: true } | { ok: false; reason: WebhookVerificationFailure };

export interface VerifyWebhookInput {
  secrets: readonly string[];
  rawBody: Buffer;
  timestampHeader: string | readonly string[] | undefined;
  signatureHeader: string | readonly string[] | undefined;
  nowSeconds: number;
  toleranceSeconds?: number;
}

// Strings are hashed and compared as UTF-8, node:crypto's and Buffer's default: a string body and its bytes sign the same.
function signatureHex(secret: string, timestamp: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** Signs `rawBody` with every secret (current first during a rotation). */
export function signWebhook(
  secrets: readonly string[],
  rawBody: Buffer | string,
  timestampSeconds: number,
): { timestamp: string; signature: string } {
  if (secrets.length === 0 || secrets.some((secret) => secret.length === 0)) {
    throw new Error('signWebhook needs at least one non-empty secret');
  }
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('timestampSeconds must be a non-negative integer (Unix seconds)');
  }
  const timestamp = String(timestampSeconds);
  const signature = secrets.map((secret) => `${SCHEME_PREFIX}${signatureHex(secret, timestamp, rawBody)}`).join(' ');
  return { timestamp, signature };
}

/** A repeated header may arrive as an array or joined with ", " by Node: accept both. */
function headerText(header: string | readonly string[] | undefined): string {
  return (typeof header === 'string' ? header : (header ?? []).join(' ')).trim();
}

function sameBytes(candidate: string, expected: string): boolean {
  const a = Buffer.from(candidate);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Verifies over the raw bytes received, before any JSON parsing. Any accepted secret may match. */
export function verifyWebhook(input: VerifyWebhookInput): WebhookVerification {
  const timestamp = headerText(input.timestampHeader);
  const signatureHeader = headerText(input.signatureHeader);
  if (timestamp === '' || signatureHeader === '') return { ok: false, reason: 'missing-headers' };
  if (!TIMESTAMP_PATTERN.test(timestamp)) return { ok: false, reason: 'bad-timestamp' };

  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(input.nowSeconds - Number(timestamp)) > tolerance) return { ok: false, reason: 'stale' };

  // Values of other schemes are skipped so a future "v2=" can be added next to "v1=".
  const candidates = signatureHeader
    .split(SIGNATURE_SEPARATORS)
    .filter((part) => part.startsWith(SCHEME_PREFIX))
    .map((part) => part.slice(SCHEME_PREFIX.length));
  const secrets = input.secrets.filter((secret) => secret.length > 0);

  let matched = false;
  for (const secret of secrets) {
    const expected = signatureHex(secret, timestamp, input.rawBody);
    // No early exit: the work done does not depend on which candidate matched.
    for (const candidate of candidates) {
      if (sameBytes(candidate, expected)) matched = true;
    }
  }
  return matched ? { ok: true } : { ok: false, reason: 'bad-signature' };
}

/**
 * A signed message, identified by what its MAC covers: the signed timestamp, and a digest of the rest (the raw
 * body, and the message id where the scheme signs one). Never by the signature header as written: a header with
 * a value prepended (`v1=00,`, `v1,AAAA `) still verifies, and must not make the same message new again.
 */
export interface SignedMessage {
  timestamp: string;
  content: string;
}

/** The identity of a message whose MAC covers `timestamp`, `rawBody` and, where the scheme signs one, `id`. */
export function signedMessage(timestamp: string, rawBody: Buffer | string, id?: string): SignedMessage {
  const digest = createHash('sha256');
  if (id !== undefined) digest.update(`${id}\n`);
  return { timestamp, content: digest.update(rawBody).digest('base64url') };
}

/**
 * The signed messages a receiver accepted within the tolerance window, by what their MAC covers (SignedMessage):
 * the same message again, while its timestamp is still fresh, is a replay, however its signature header is written. A sender that retries signs again
 * with a new timestamp, so its retries pass; one that resends the same bytes passes too once the
 * receiver has released the request it could not handle. In memory, for one process, bounded: past
 * `maxEntries` the oldest are forgotten.
 */
export class ReplayGuard {
  /** Key to the Unix second after which the request is stale anyway (and forgotten). */
  private readonly seen = new Map<string, number>();
  private readonly toleranceSeconds: number;
  private readonly maxEntries: number;

  constructor(options: { toleranceSeconds?: number; maxEntries?: number } = {}) {
    this.toleranceSeconds = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
    this.maxEntries = options.maxEntries ?? 200_000;
  }

  /** True the first time a request is seen within its window; false for a replay. */
  claim(message: SignedMessage, nowSeconds: number): boolean {
    this.forgetStale(nowSeconds);
    const key = ReplayGuard.keyOf(message);
    if (this.seen.has(key)) return false;
    this.seen.set(key, Number(message.timestamp) + this.toleranceSeconds);
    if (this.seen.size > this.maxEntries) this.seen.delete(this.seen.keys().next().value as string);
    return true;
  }

  /** Forgets a request the receiver could not handle, so that the same bytes sent again are taken. */
  release(message: SignedMessage): void {
    this.seen.delete(ReplayGuard.keyOf(message));
  }

  get size(): number {
    return this.seen.size;
  }

  private static keyOf(message: SignedMessage): string {
    return `${message.timestamp}.${message.content}`;
  }

  /** Entries are kept in the order they came; those past their window are dropped from the front. */
  private forgetStale(nowSeconds: number): void {
    for (const [key, staleAfter] of this.seen) {
      if (staleAfter >= nowSeconds) break;
      this.seen.delete(key);
    }
  }
}
