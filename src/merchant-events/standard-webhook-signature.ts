/**
 * Standard Webhooks (https://www.standardwebhooks.com, the Svix convention), how the engine signs the
 * events it sends to merchants, so that they verify them with a library they already use:
 *
 *   webhook-id:        the event's id, the same on every attempt (de-duplicate by it)
 *   webhook-timestamp: Unix seconds of this attempt
 *   webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<raw body>")>, space-separated, one per active secret
 *
 * The key is the bytes of the base64 after `whsec_` in the secret, not the secret's text. Nothing but
 * `node:crypto`, so that it can be copied beside a receiver.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const STANDARD_WEBHOOK_ID_HEADER = 'webhook-id';
export const STANDARD_WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SECONDS = 300;
const TIMESTAMP_PATTERN = /^\d{1,12}$/;

/** A new signing secret as libraries expect it: `whsec_` and the standard base64 of 32 random bytes (the spec asks 24 to 64). */
export function newStandardWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The HMAC key of a secret: the bytes its base64 stands for. Secrets issued before Standard Webhooks are
 * base64url, which signs too (libraries refuse them: rotate first). Anything else is refused rather than
 * read leniently, so that two different secrets never stand for one key.
 */
export function standardWebhookKey(secret: string): Buffer {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(text, 'base64');
  if (key.length === 0 || (key.toString('base64') !== text && key.toString('base64url') !== text))
    throw new Error('a Standard Webhooks secret is whsec_ and base64');
  return key;
}

/** A body given as text is signed as its UTF-8 bytes (what `update` does with a string), the bytes sent. */
function signature(key: Buffer, id: string, timestamp: string, rawBody: Buffer | string): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest('base64');
}

/** The three headers of one attempt, signed with every secret (current first during a rotation). */
export function standardWebhookHeaders(
  id: string,
  secrets: readonly string[],
  rawBody: Buffer | string,
  nowSeconds: number,
): Record<string, string> {
  if (secrets.length === 0) throw new Error('standardWebhookHeaders needs at least one secret');
  if (!Number.isSafeInteger(nowSeconds) || nowSeconds < 0)
    throw new RangeError('nowSeconds must be a non-negative integer (Unix seconds)');
  const timestamp = String(nowSeconds);
  return {
    [STANDARD_WEBHOOK_ID_HEADER]: id,
    [STANDARD_WEBHOOK_TIMESTAMP_HEADER]: timestamp,
    [STANDARD_WEBHOOK_SIGNATURE_HEADER]: secrets
      .map((secret) => `v1,${signature(standardWebhookKey(secret), id, timestamp, rawBody)}`)
      .join(' '),
  };
}

export type StandardWebhookFailure = 'missing-headers' | 'bad-timestamp' | 'stale' | 'bad-signature';

export interface StandardWebhookCheck {
  /** The body exactly as received, before any JSON parsing. */
  rawBody: Buffer | string;
  /** The request's headers as Node gives them (names in lower case). */
  headers: Record<string, string | string[] | undefined>;
  secret: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}

/** A header as the check reads it (a repeated one joined with spaces, trimmed): what a replay guard keys on too. */
export function standardWebhookHeader(headers: StandardWebhookCheck['headers'], name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value.join(' ') : (value ?? '')).trim();
}

/** The check of the specification, as its libraries run it: any `v1,` value signed with the secret, a timestamp within the tolerance. */
export function verifyStandardWebhook(
  check: StandardWebhookCheck,
): { ok: true } | { ok: false; reason: StandardWebhookFailure } {
  const id = standardWebhookHeader(check.headers, STANDARD_WEBHOOK_ID_HEADER);
  const timestamp = standardWebhookHeader(check.headers, STANDARD_WEBHOOK_TIMESTAMP_HEADER);
  const signatures = standardWebhookHeader(check.headers, STANDARD_WEBHOOK_SIGNATURE_HEADER);
  if (id === '' || timestamp === '' || signatures === '') return { ok: false, reason: 'missing-headers' };
  if (!TIMESTAMP_PATTERN.test(timestamp)) return { ok: false, reason: 'bad-timestamp' };
  if (Math.abs(check.nowSeconds - Number(timestamp)) > (check.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS))
    return { ok: false, reason: 'stale' };
  const expected = Buffer.from(signature(standardWebhookKey(check.secret), id, timestamp, check.rawBody));
  let matched = false;
  // Values of other versions are skipped; no early exit, so the work does not depend on which value matched.
  for (const versioned of signatures.split(' ')) {
    const [version, value] = versioned.split(',', 2);
    if (version !== 'v1' || value === undefined) continue;
    const candidate = Buffer.from(value);
    if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  return matched ? { ok: true } : { ok: false, reason: 'bad-signature' };
}
