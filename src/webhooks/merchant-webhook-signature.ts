/**
 * How the engine signs what it sends to merchants, and the check a merchant's receiver runs. The
 * scheme is the provider's (src/payment-api/webhook-signature.ts) under the engine's own header names:
 *
 *   X-Webhook-Id:        the event's id, the same on every attempt (de-duplicate by it)
 *   X-Webhook-Timestamp: Unix seconds of this attempt
 *   X-Webhook-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>, one per active secret
 *
 * During a secret rotation both secrets sign, so a receiver may switch whenever it likes. A receiver that
 * keeps one ReplayGuard (per process) and passes it to every check refuses a request it already accepted
 * (same id, timestamp and signature) while its timestamp is fresh: a replay of a captured request. Each
 * delivery attempt is signed afresh, so the engine's own retries pass; handling each event id once is
 * still the receiver's (events are delivered at least once).
 */
import { ReplayGuard, signWebhook, verifyWebhook, type WebhookVerification } from '../payment-api/webhook-signature';

export { ReplayGuard };

export const MERCHANT_WEBHOOK_ID_HEADER = 'X-Webhook-Id';
export const MERCHANT_WEBHOOK_TIMESTAMP_HEADER = 'X-Webhook-Timestamp';
export const MERCHANT_WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';

export function merchantWebhookHeaders(eventId: string, secrets: readonly string[], rawBody: string, nowSeconds: number): Record<string, string> {
  const { timestamp, signature } = signWebhook(secrets, rawBody, nowSeconds);
  return {
    [MERCHANT_WEBHOOK_ID_HEADER]: eventId,
    [MERCHANT_WEBHOOK_TIMESTAMP_HEADER]: timestamp,
    [MERCHANT_WEBHOOK_SIGNATURE_HEADER]: signature,
  };
}

export interface MerchantWebhookCheck {
  /** The body exactly as received, before any JSON parsing. */
  rawBody: Buffer | string;
  /** The request's headers as Node gives them (names in lower case). */
  headers: Record<string, string | string[] | undefined>;
  /** The endpoint's signing secret (`whsec_...`), as shown when it was created or rotated. */
  secret: string;
  /** Seconds the timestamp may differ from now (default 300): an older request is a replay. */
  toleranceSeconds?: number;
  nowSeconds?: number;
  /** The requests this receiver accepted within the window (one per process): the same one again is refused as `replayed`. */
  replays?: ReplayGuard;
}

/** For merchants: `{ ok: true }` when the request was signed with the secret within the tolerance (and, with `replays`, not accepted before). */
export function verifyMerchantWebhook(check: MerchantWebhookCheck): WebhookVerification {
  const signed = {
    timestampHeader: check.headers[MERCHANT_WEBHOOK_TIMESTAMP_HEADER.toLowerCase()],
    signatureHeader: check.headers[MERCHANT_WEBHOOK_SIGNATURE_HEADER.toLowerCase()],
  };
  const nowSeconds = check.nowSeconds ?? Math.floor(Date.now() / 1000);
  const verification = verifyWebhook({
    secrets: [check.secret],
    rawBody: typeof check.rawBody === 'string' ? Buffer.from(check.rawBody, 'utf8') : check.rawBody,
    ...signed,
    nowSeconds,
    ...(check.toleranceSeconds === undefined ? {} : { toleranceSeconds: check.toleranceSeconds }),
  });
  if (!verification.ok || !check.replays) return verification;
  const id = check.headers[MERCHANT_WEBHOOK_ID_HEADER.toLowerCase()];
  return check.replays.claim({ ...signed, extra: Array.isArray(id) ? id.join(',') : (id ?? '') }, nowSeconds) ? verification : { ok: false, reason: 'replayed' };
}
