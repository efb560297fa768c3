/**
 * A payout's destination (PIX keys, BR Codes, e-mails, wallets, and the free-text description, which
 * merchants fill with names) is personal data: the batch store keeps it sealed with AES-256-GCM (and the
 * webhook endpoint store its signing secrets, under the endpoint's id). The item's externalId is the
 * associated data, so a sealed value copied onto another row fails to open instead of paying the wrong
 * person. Each row records the id of the key that sealed it, so rows sealed before a key rotation still
 * open with the previous key. Rows are sealed with the key's subkey for their purpose (batch items or
 * webhook secrets: key-purposes.ts), so that one store's subkey opens nothing of the other's or of
 * Temporal's payloads; rows sealed before the subkeys (formats 1 and 2) open with the key itself.
 */
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { purposeKey, type KeyPurpose } from '../temporal/key-purposes';
import type { EncryptionKey } from '../temporal/payload-codec';

/**
 * 1: a PIX key and its description as a tuple (rows of PIX-key batches from before the rails), and 2: any
 * JSON, both sealed with the key itself; 3: any JSON, sealed with the key's subkey for the store's purpose.
 */
const LEGACY_FORMAT = 1;
const KEY_ITSELF_FORMAT = 2;
const FORMAT_VERSION = 3;
const KNOWN_FORMATS = new Set([LEGACY_FORMAT, KEY_ITSELF_FORMAT, FORMAT_VERSION]);

interface SealingKeys {
  key: KeyObject;
  subkey: KeyObject;
}
const IV_BYTES = 12;
const TAG_BYTES = 16;
const legacySchema = z.union([z.tuple([z.string()]), z.tuple([z.string(), z.string()])]);

export class ItemSealer {
  /** The id stored with every row this sealer seals. */
  readonly keyId: string;
  private readonly byId: Map<string, SealingKeys>;

  /** `active` seals; `active` and every `previous` key open; `purpose` names the subkey (one per store). */
  constructor(
    active: EncryptionKey,
    previous: readonly EncryptionKey[],
    purpose: Exclude<KeyPurpose, 'temporal-payloads'>,
  ) {
    for (const { id, key } of [active, ...previous]) {
      if (key.length !== 32) throw new Error(`the payload encryption key ${id} must be 32 bytes`);
    }
    this.keyId = active.id;
    this.byId = new Map(
      [active, ...previous].map(({ id, key }) => [
        id,
        { key: createSecretKey(key), subkey: createSecretKey(purposeKey(key, purpose)) },
      ]),
    );
  }

  private get active(): SealingKeys {
    const keys = this.byId.get(this.keyId);
    if (!keys) throw new Error(`the payload encryption key ${this.keyId} is not configured`);
    return keys;
  }

  /** Seals a whole batch: the random IVs come from one draw, which halves the cost of 10,000 seals. */
  sealMany(items: readonly { externalId: string; sealed: unknown }[]): Buffer[] {
    const ivs = randomBytes(IV_BYTES * items.length);
    return items.map((item, index) =>
      this.seal(item.externalId, item.sealed, ivs.subarray(index * IV_BYTES, (index + 1) * IV_BYTES)),
    );
  }

  /** Seals any JSON value under the item's externalId. */
  seal(externalId: string, value: unknown, iv: Buffer = randomBytes(IV_BYTES)): Buffer {
    return this.sealPlain(FORMAT_VERSION, externalId, Buffer.from(JSON.stringify(value)), iv);
  }

  /** The format of rows sealed before the rails: kept so that tests can make such rows. */
  sealLegacy(externalId: string, fields: { pixKey: string; description?: string }): Buffer {
    const tuple = fields.description === undefined ? [fields.pixKey] : [fields.pixKey, fields.description];
    return this.sealPlain(LEGACY_FORMAT, externalId, Buffer.from(JSON.stringify(tuple)), randomBytes(IV_BYTES));
  }

  private sealPlain(version: number, externalId: string, plain: Buffer, iv: Buffer): Buffer {
    const cipher = createCipheriv('aes-256-gcm', version === FORMAT_VERSION ? this.active.subkey : this.active.key, iv);
    cipher.setAAD(Buffer.from(externalId));
    return Buffer.concat([Buffer.of(version), iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  }

  /**
   * `keyId` is the id stored with the row; null for rows sealed before ids were stored, which every
   * configured key is tried on (the authentication tag tells the right one).
   */
  open(externalId: string, sealed: Buffer, keyId: string | null): unknown {
    if (sealed.length < 1 + IV_BYTES + TAG_BYTES || !KNOWN_FORMATS.has(sealed[0] ?? 0)) {
      throw new Error(`sealed fields of ${externalId} are not in a known format`);
    }
    if (keyId === null) {
      for (const key of this.byId.values()) {
        try {
          return openWith(key, externalId, sealed);
        } catch {
          // Not this key: try the next.
        }
      }
      throw new Error(`sealed fields of ${externalId} open with none of the configured keys`);
    }
    const key = this.byId.get(keyId);
    if (!key)
      throw new Error(
        `sealed fields of ${externalId} need the key ${keyId}, which is not configured (PAYLOAD_ENCRYPTION_PREVIOUS_KEYS)`,
      );
    return openWith(key, externalId, sealed);
  }
}

/** The sealed JSON value; a legacy row reads as `{ pixKey, description? }`. */
function openWith(keys: SealingKeys, externalId: string, sealed: Buffer): unknown {
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', sealed[0] === FORMAT_VERSION ? keys.subkey : keys.key, iv);
  decipher.setAAD(Buffer.from(externalId));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  const plain = JSON.parse(
    Buffer.concat([
      decipher.update(sealed.subarray(1 + IV_BYTES, sealed.length - TAG_BYTES)),
      decipher.final(),
    ]).toString(),
  ) as unknown;
  if (sealed[0] !== LEGACY_FORMAT) return plain;
  const [pixKey, description] = legacySchema.parse(plain);
  return description === undefined ? { pixKey } : { pixKey, description };
}
