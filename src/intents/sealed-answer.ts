/**
 * money_intents.answer holds what a re-run needs of the provider's answer: a charge's copy-and-paste code (which a
 * re-run shows its payer), a refusal's reason. It is sealed (AES-256-GCM, item-sealer.ts) with the payload key's
 * subkey for money intents (key-purposes.ts), the intent's kind and business id as associated data: an answer copied
 * onto another row, or altered, does not open, and is refused rather than shown. The column stays text in both
 * dialects: `sealed:<key id>:<base64url>`. Rows written before the sealing hold the JSON in clear: they still read,
 * marked `unsealed`, and whoever reads them checks them as a fresh provider answer is checked.
 */
import { ItemSealer } from '../db/item-sealer';
import type { PayloadKeys } from '../temporal/encryption-key';
import type { IntentKey } from './intent-store';

const PREFIX = 'sealed:';

export type AnswerReading =
  | { kind: 'opened'; answer: string }
  /** Written before answers were sealed: read as it is. */
  | { kind: 'unsealed'; answer: string }
  /** Sealed for another row, altered, or under a key no longer configured: never shown. */
  | { kind: 'refused'; problem: string };

const ALTERED: AnswerReading = {
  kind: 'refused',
  problem: "does not open as this intent's answer (copied from another row, or altered)",
};

/** The associated data: the row's own identity, so that a sealed answer means nothing on any other row. */
const boundTo = (key: IntentKey): string => `money-intent:${key.kind}:${key.businessId}`;

export class IntentAnswerSealer {
  private readonly sealer: ItemSealer;
  private readonly keyIds: ReadonlySet<string>;

  constructor(keys: PayloadKeys) {
    this.sealer = new ItemSealer(keys.active, keys.previous, 'money-intents');
    this.keyIds = new Set([keys.active, ...keys.previous].map(({ id }) => id));
  }

  seal(key: IntentKey, answer: string): string {
    return `${PREFIX}${this.sealer.keyId}:${this.sealer.seal(boundTo(key), answer).toString('base64url')}`;
  }

  open(key: IntentKey, stored: string): AnswerReading {
    if (!stored.startsWith(PREFIX)) return { kind: 'unsealed', answer: stored };
    const sealed = stored.slice(PREFIX.length);
    const separator = sealed.indexOf(':');
    if (separator < 1) return ALTERED;
    const keyId = sealed.slice(0, separator);
    // A key dropped from the configuration is the operator's to restore; anything else is the row's.
    if (!this.keyIds.has(keyId))
      return {
        kind: 'refused',
        problem: `needs the key ${keyId}, which is not configured (PAYLOAD_ENCRYPTION_PREVIOUS_KEYS)`,
      };
    try {
      const answer = this.sealer.open(boundTo(key), Buffer.from(sealed.slice(separator + 1), 'base64url'), keyId);
      return typeof answer === 'string' ? { kind: 'opened', answer } : ALTERED;
    } catch {
      return ALTERED;
    }
  }
}
