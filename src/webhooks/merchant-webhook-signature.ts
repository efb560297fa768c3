/**
 * How the engine signs what it sends to merchants, and the check a merchant's receiver runs. The
 * scheme is the provider's (src/payment-api/webhook-signature.ts) under the engine's own header names:
 *
 *   X-Webhook-Id:        the event's id, the same on every attempt (de-duplicate by it)
 *   X-Webhook-Timestamp: Unix seconds of this attempt
 *   X-Webhook-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>, one per active secret
 *
 * During a secret rotation both secrets sign, so a receiver may switch whenever it likes.
 */
import { signWebhook, verifyWebhook, type WebhookVerification } from '../payment-api/webhook-signature';

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
}

/** For merchants: `{ ok: true }` when the request was signed with the secret within the tolerance. */
export function verifyMerchantWebhook(check: MerchantWebhookCheck): WebhookVerification {
  return verifyWebhook({
    secrets: [check.secret],
    rawBody: typeof check.rawBody === 'string' ? Buffer.from(check.rawBody, 'utf8') : check.rawBody,
    timestampHeader: check.headers[MERCHANT_WEBHOOK_TIMESTAMP_HEADER.toLowerCase()],
    signatureHeader: check.headers[MERCHANT_WEBHOOK_SIGNATURE_HEADER.toLowerCase()],
    nowSeconds: check.nowSeconds ?? Math.floor(Date.now() / 1000),
    ...(check.toleranceSeconds === undefined ? {} : { toleranceSeconds: check.toleranceSeconds }),
  });
}
