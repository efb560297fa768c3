/**
 * The environment's fixed RSA key pair (spec: "the public key used for 3DS is fixed per environment")
 * and the card token it opens. The pair is made once per sandbox database, on first use, and kept in
 * its settings table, so it survives a restart and every shield.js ever served stays valid.
 *
 * A token is module.encrypt's output: base64 of RSA-OAEP (SHA-256, MGF1 SHA-256) over the card's JSON
 * (cardTokenPayloadSchema). Its plaintext holds the full card number and cvv: it lives in the one call
 * that reads it, and is never logged, stored or put in an error.
 */
import {
  constants,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  privateDecrypt,
  type KeyObject,
} from 'node:crypto';
import { cardTokenPayloadSchema, type CardTokenPayload } from '../../../../src/payment-api/schemas/security-module';
import type { SandboxDatabase } from '../../../store/database';
import { readOrCreateSetting } from '../../../store/database';

const PRIVATE_KEY_SETTING = 'shield_rsa_private_key';
/** 2048 bits leave 190 bytes of OAEP-SHA-256 plaintext: the card's JSON with a 26-character embossed name fits easily. */
const MODULUS_BITS = 2048;

export interface ShieldKeys {
  /** SPKI PEM, what GET /shield/public-key serves and setPublicKey takes. */
  publicKeyPem: string;
  privateKey: KeyObject;
}

const loaded = new WeakMap<SandboxDatabase, ShieldKeys>();

export function shieldKeys(db: SandboxDatabase): ShieldKeys {
  const cached = loaded.get(db);
  if (cached) return cached;
  const pem = readOrCreateSetting(db, PRIVATE_KEY_SETTING, () =>
    generateKeyPairSync('rsa', { modulusLength: MODULUS_BITS })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  );
  const privateKey = createPrivateKey(pem);
  const keys = {
    privateKey,
    publicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
  };
  loaded.set(db, keys);
  return keys;
}

/** The key's base64 body without PEM armour or whitespace: two spellings of one key compare equal. */
function keyBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
}

export function isEnvironmentKey(keys: ShieldKeys, candidate: string): boolean {
  return keyBody(candidate) === keyBody(keys.publicKeyPem);
}

/** The card inside a token, or undefined when it is not a token of this environment's key. */
export function openCardToken(keys: ShieldKeys, token: string): CardTokenPayload | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return undefined;
  let plaintext: Buffer;
  try {
    plaintext = privateDecrypt(
      { key: keys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(token, 'base64'),
    );
  } catch {
    return undefined;
  }
  try {
    const parsed = cardTokenPayloadSchema.safeParse(JSON.parse(plaintext.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  } finally {
    plaintext.fill(0);
  }
}
