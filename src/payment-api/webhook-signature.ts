/**
 * Webhook signatures (the spec names the headers only; the scheme is ours, see docs/assumptions.md):
 *
 *   X-Service-Webhook-Timestamp: <Unix seconds>
 *   X-Service-Webhook-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>[ v1=<...>]
 *
 * One `v1=` value per active secret, so receivers keep verifying while a secret rotates. The timestamp
 * is inside the MAC and checked against a window so a captured callback cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_TIMESTAMP_HEADER = 'X-Service-Webhook-Timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'X-Service-Webhook-Signature';
/** Unique per event, identical on every retry of that event: receivers de-duplicate by it. */
export const WEBHOOK_ID_HEADER = 'X-Service-Webhook-Id';

export const WEBHOOK_SIGNATURE_SCHEME = 'v1';
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

const SCHEME_PREFIX = `${WEBHOOK_SIGNATURE_SCHEME}=`;
const TIMESTAMP_PATTERN = /^\d{1,12}$/;

export type WebhookVerificationFailure = 'missing-headers' | 'bad-timestamp' | 'stale' | 'bad-signature';
export type WebhookVerification = { ok: true } | { ok: false; reason: WebhookVerificationFailure };

export interface VerifyWebhookInput {
  secrets: readonly string[];
  rawBody: Buffer;
  timestampHeader: string | readonly string[] | undefined;
  signatureHeader: string | readonly string[] | undefined;
  nowSeconds: number;
  toleranceSeconds?: number;
}

function signatureHex(secret: string, timestamp: string, rawBody: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest('hex');
}

function toBuffer(rawBody: Buffer | string): Buffer {
  return typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
}

/** Signs `rawBody` with every secret (current first during a rotation). */
export function signWebhook(secrets: readonly string[], rawBody: Buffer | string, timestampSeconds: number): { timestamp: string; signature: string } {
  if (secrets.length === 0 || secrets.some((secret) => secret.length === 0)) {
    throw new Error('signWebhook needs at least one non-empty secret');
  }
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('timestampSeconds must be a non-negative integer (Unix seconds)');
  }
  const timestamp = String(timestampSeconds);
  const body = toBuffer(rawBody);
  const signature = secrets.map((secret) => `${SCHEME_PREFIX}${signatureHex(secret, timestamp, body)}`).join(' ');
  return { timestamp, signature };
}

/** A repeated header may arrive as an array or joined with ", " by Node: accept both. */
function headerText(header: string | readonly string[] | undefined): string {
  return (typeof header === 'string' ? header : (header ?? []).join(' ')).trim();
}

function sameBytes(candidate: string, expected: string): boolean {
  const a = Buffer.from(candidate, 'utf8');
  const b = Buffer.from(expected, 'utf8');
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
    .split(/[\s,]+/)
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
