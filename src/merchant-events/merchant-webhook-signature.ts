/**
 * How the engine signs what it sends to merchants, per endpoint (its `signatureScheme`), and the check a
 * receiver of this repository runs (the cluster check, tests). Merchants verify with a Standard Webhooks
 * library (README); this module is what those libraries do, plus a replay guard.
 *
 *   standard-webhooks (every endpoint created since): webhook-id, webhook-timestamp, webhook-signature
 *     (standard-webhook-signature.ts)
 *   legacy (endpoints created before, or asked for): the scheme the provider uses for its callbacks under
 *     the engine's names, and the Standard Webhooks headers beside them for the deprecation window, so that
 *     a receiver moves to a library without a flag day:
 *       X-Webhook-Id:        the event's id, the same on every attempt
 *       X-Webhook-Timestamp: Unix seconds of this attempt
 *       X-Webhook-Signature: v1=<hex HMAC-SHA256(secret text, "<timestamp>.<raw body>")>, one per active secret
 *
 * During a secret rotation both secrets sign, so a receiver may switch whenever it likes. Each delivery
 * attempt is signed afresh, so the engine's own retries pass a replay guard; handling each event id once
 * is still the receiver's (events are delivered at least once).
 */
import { ReplayGuard, signedMessage, signWebhook, type WebhookVerification } from '../payment-api/webhook-signature';
import {
  STANDARD_WEBHOOK_ID_HEADER,
  STANDARD_WEBHOOK_TIMESTAMP_HEADER,
  standardWebhookHeader,
  standardWebhookHeaders,
  verifyStandardWebhook,
} from './standard-webhook-signature';

export { ReplayGuard };

export const SIGNATURE_SCHEMES = ['standard-webhooks', 'legacy'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

export const LEGACY_WEBHOOK_ID_HEADER = 'X-Webhook-Id';
export const LEGACY_WEBHOOK_TIMESTAMP_HEADER = 'X-Webhook-Timestamp';
export const LEGACY_WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';

/** The headers that sign one delivery attempt to an endpoint of `scheme`. */
export function merchantWebhookHeaders(
  scheme: SignatureScheme,
  eventId: string,
  secrets: readonly string[],
  rawBody: string,
  nowSeconds: number,
): Record<string, string> {
  const standard = standardWebhookHeaders(eventId, secrets, rawBody, nowSeconds);
  if (scheme === 'standard-webhooks') return standard;
  const { timestamp, signature } = signWebhook(secrets, rawBody, nowSeconds);
  return {
    [LEGACY_WEBHOOK_ID_HEADER]: eventId,
    [LEGACY_WEBHOOK_TIMESTAMP_HEADER]: timestamp,
    [LEGACY_WEBHOOK_SIGNATURE_HEADER]: signature,
    ...standard,
  };
}

export interface MerchantWebhookCheck {
  /** The body exactly as received, before any JSON parsing. */
  rawBody: Buffer | string;
  /** The request's headers as Node gives them (names in lower case). */
  headers: Record<string, string | string[] | undefined>;
  /** The endpoint's signing secret (`whsec_...`), as shown when it was created or rotated. */
  secret: string;
  /** Seconds the timestamp may differ from now (default 300). */
  toleranceSeconds?: number;
  nowSeconds?: number;
  /** The requests this receiver accepted within the window (one per process): the same one again is refused as `replayed`. */
  replays?: ReplayGuard;
}

/** `{ ok: true }` when the Standard Webhooks headers were signed with the secret within the tolerance (and, with `replays`, not accepted before). */
export function verifyMerchantWebhook(check: MerchantWebhookCheck): WebhookVerification {
  const nowSeconds = check.nowSeconds ?? Math.floor(Date.now() / 1000);
  const verification = verifyStandardWebhook({
    rawBody: check.rawBody,
    headers: check.headers,
    secret: check.secret,
    nowSeconds,
    ...(check.toleranceSeconds === undefined ? {} : { toleranceSeconds: check.toleranceSeconds }),
  });
  if (!verification.ok || !check.replays) return verification;
  // Keyed on what the signature covers (id, timestamp, body), never on the signature header, which may carry other values.
  const signed = signedMessage(
    standardWebhookHeader(check.headers, STANDARD_WEBHOOK_TIMESTAMP_HEADER),
    check.rawBody,
    standardWebhookHeader(check.headers, STANDARD_WEBHOOK_ID_HEADER),
  );
  return check.replays.claim(signed, nowSeconds) ? verification : { ok: false, reason: 'replayed' };
}
