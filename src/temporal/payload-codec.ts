/**
 * AES-256-GCM payload codec. Every payload the client or worker sends to Temporal is serialized,
 * encrypted with the active key's subkey for Temporal payloads (key-purposes.ts) and tagged with the
 * key's id and the subkey's mark; decoding looks the key up by id, so older keys keep decoding history
 * after a rotation, and a payload without the mark (encrypted before the subkeys) opens with the key
 * itself. Search attributes do not pass through codecs.
 *
 * Decoding refuses any payload that is not encrypted: anyone who can reach Temporal can start a
 * workflow or send a signal with a plaintext input (`temporal workflow start --input ...`), and the
 * worker must not act on it. Only `binary/null` (no data, nothing to act on) and the Temporal server's
 * own markers (below: fixed words, nothing a sender chooses) pass as they are.
 */
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { METADATA_ENCODING_KEY } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { purposeKey } from './key-purposes';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
/** Set on payloads encrypted with the key's subkey for Temporal payloads; absent on those encrypted before, with the key itself. */
export const KEY_DERIVATION_METADATA = 'encryption-key-derivation';
const PAYLOAD_SUBKEY = 'hkdf-sha256/temporal-payloads/v1';
const NULL_ENCODING = 'binary/null';
/**
 * Plaintext the Temporal server itself writes into a history: the details of an activity it cancelled
 * before any worker started it (a payout's submission waiting out its retry backoff when a cancel comes).
 * Refused, that one event failed every workflow task of the payout from then on.
 */
const SERVER_MARKERS = new Set(['json/plain:"ACTIVITY_ID_NOT_STARTED"']);
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Random bytes drawn at once for the IVs of this many payloads. */
const IVS_PER_DRAW = 256;

export interface EncryptionKey {
  id: string;
  /** 32 raw bytes. */
  key: Buffer;
}

export function payloadEncoding(payload: Payload): string | undefined {
  const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
  return encoding ? Buffer.from(encoding).toString() : undefined;
}

export class PayloadDecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PayloadDecryptionError';
  }
}

/**
 * Each IV is 12 fresh random bytes, as before, taken from a block drawn from the CSPRNG for 256 payloads at a
 * time: one call into OpenSSL per block instead of one per payload (the worker encrypts a dozen per payout).
 * A block's bytes are handed out once each and never written again.
 */
class RandomIvs {
  private block = Buffer.alloc(0);
  private offset = 0;

  next(): Buffer {
    if (this.offset + IV_BYTES > this.block.length) {
      this.block = randomBytes(IV_BYTES * IVS_PER_DRAW);
      this.offset = 0;
    }
    const iv = this.block.subarray(this.offset, this.offset + IV_BYTES);
    this.offset += IV_BYTES;
    return iv;
  }
}

/**
 * Keys are held as KeyObjects, made once: given raw bytes, every createCipheriv turns them into a key of its own
 * first, which is most of the time a payload's encryption takes.
 */
export class AesGcmPayloadCodec implements PayloadCodec {
  /** By key id: the key itself (payloads of before the subkeys) and its subkey for payloads. */
  private readonly byId: Map<string, { key: KeyObject; subkey: KeyObject }>;
  private readonly activeSubkey: KeyObject;
  private readonly ivs = new RandomIvs();
  /** The active key's id (the AAD) and the metadata of every payload it encrypts: built once, never written to. */
  private readonly activeKeyId: Buffer;
  private readonly encryptedMetadata: Record<string, Buffer>;

  /** `active` encrypts; `active` and every `previous` key decrypt. */
  constructor(
    private readonly active: EncryptionKey,
    previous: EncryptionKey[] = [],
  ) {
    for (const k of [active, ...previous]) {
      if (k.key.length !== 32) throw new Error(`encryption key ${k.id} must be 32 bytes`);
    }
    const keysOf = (k: EncryptionKey) => ({
      key: createSecretKey(k.key),
      subkey: createSecretKey(purposeKey(k.key, 'temporal-payloads')),
    });
    const activeKeys = keysOf(active);
    this.byId = new Map([[active.id, activeKeys], ...previous.map((k) => [k.id, keysOf(k)] as const)]);
    this.activeSubkey = activeKeys.subkey;
    this.activeKeyId = Buffer.from(active.id);
    this.encryptedMetadata = {
      [METADATA_ENCODING_KEY]: Buffer.from(ENCRYPTED_ENCODING),
      [KEY_ID_METADATA]: this.activeKeyId,
      [KEY_DERIVATION_METADATA]: Buffer.from(PAYLOAD_SUBKEY),
    };
  }

  // Executors turn a synchronous throw into a rejection, as callers of a codec expect.
  encode(payloads: Payload[]): Promise<Payload[]> {
    return new Promise((resolve) => resolve(payloads.map((payload) => this.encrypt(payload))));
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    return new Promise((resolve) => resolve(payloads.map((payload) => this.decrypt(payload))));
  }

  private encrypt(payload: Payload): Payload {
    const plain = temporal.api.common.v1.Payload.encode(payload).finish();
    const iv = this.ivs.next();
    const cipher = createCipheriv('aes-256-gcm', this.activeSubkey, iv);
    cipher.setAAD(this.activeKeyId);
    const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return { metadata: { ...this.encryptedMetadata }, data };
  }

  private decrypt(payload: Payload): Payload {
    const encoding = payloadEncoding(payload);
    if (encoding !== ENCRYPTED_ENCODING) {
      // Read as text only here: an encrypted payload's data is not worth turning into a string to compare.
      if (encoding === NULL_ENCODING || SERVER_MARKERS.has(`${encoding}:${Buffer.from(payload.data ?? []).toString()}`))
        return payload;
      throw new PayloadDecryptionError(`payload is not encrypted (encoding ${encoding ?? 'unset'}): refused`);
    }
    const keyIdBytes = payload.metadata?.[KEY_ID_METADATA];
    if (!keyIdBytes) throw new PayloadDecryptionError('encrypted payload without a key id');
    const keyId = Buffer.from(keyIdBytes).toString();
    const keys = this.byId.get(keyId);
    if (!keys) throw new PayloadDecryptionError(`no key with id ${keyId} is configured`);
    const derivation = payload.metadata?.[KEY_DERIVATION_METADATA];
    const derivationName = derivation ? Buffer.from(derivation).toString() : undefined;
    if (derivationName !== undefined && derivationName !== PAYLOAD_SUBKEY)
      throw new PayloadDecryptionError(`unknown key derivation ${derivationName}`);
    const key = derivationName === undefined ? keys.key : keys.subkey;
    const data = Buffer.from(payload.data ?? new Uint8Array());
    if (data.length < IV_BYTES + TAG_BYTES) throw new PayloadDecryptionError('encrypted payload too short');
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(keyId));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
    return temporal.api.common.v1.Payload.decode(plain);
  }
}
