/**
 * How the engine decides whether a provider callback is signed, and by whom. The spec names the two
 * headers (X-Service-Webhook-Timestamp, X-Service-Webhook-Signature) but not the algorithm, so the
 * scheme sits behind this small interface: today's HMAC scheme (webhook-signature.ts) is one
 * implementation; a real provider's scheme is another, chosen in `callbackVerifierFor`, nothing else changes.
 *
 * What the router does with the verdict is a policy (PROVIDER_CALLBACK_SIGNATURES): `required` refuses
 * `unsigned`; `optional` takes it as an untrusted hint; `off` takes every callback as an untrusted hint.
 * `refused` (headers present, signature wrong or stale) is refused under `required` and `optional`.
 */
import {
  signedMessage,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  type SignedMessage,
  type WebhookVerificationFailure,
} from './webhook-signature';

export const CALLBACK_SIGNATURE_POLICIES = ['required', 'optional', 'off'] as const;
export type CallbackSignaturePolicy = (typeof CALLBACK_SIGNATURE_POLICIES)[number];

export type CallbackVerdict =
  /** Signed by the provider: the replay guard keys on `signed`, what the signature covers. */
  | { kind: 'verified'; signed: SignedMessage }
  /** Carries no signature at all. */
  | { kind: 'unsigned' }
  /** Carries a signature that does not verify: never taken. */
  | { kind: 'refused'; reason: WebhookVerificationFailure };

export interface CallbackRequest {
  rawBody: Buffer;
  header: (name: string) => string | undefined;
  nowSeconds: number;
}

export interface CallbackVerifier {
  verify(request: CallbackRequest): CallbackVerdict;
}

/** The sandbox's scheme: `v1=` HMAC-SHA256 over "<timestamp>.<raw body>", any of `secrets` (a rotation). */
export function hmacV1Verifier(secrets: readonly string[]): CallbackVerifier {
  return {
    verify({ rawBody, header, nowSeconds }) {
      const timestampHeader = header(WEBHOOK_TIMESTAMP_HEADER);
      const signatureHeader = header(WEBHOOK_SIGNATURE_HEADER);
      // A header sent empty is a signature attempt that fails, not an unsigned callback (the OpenAPI document says so).
      if (timestampHeader === undefined && signatureHeader === undefined) return { kind: 'unsigned' };
      const verification = verifyWebhook({ secrets, rawBody, timestampHeader, signatureHeader, nowSeconds });
      // Verified, the timestamp header is one plain number: the MAC covers it and the body, never the header's other values.
      return verification.ok
        ? { kind: 'verified', signed: signedMessage((timestampHeader ?? '').trim(), rawBody) }
        : { kind: 'refused', reason: verification.reason };
    },
  };
}

/** The verifier the engine runs; a provider with another scheme gets its own implementation here. */
export function callbackVerifierFor(config: { WEBHOOK_SECRET: readonly string[] }): CallbackVerifier {
  return hmacV1Verifier(config.WEBHOOK_SECRET);
}
