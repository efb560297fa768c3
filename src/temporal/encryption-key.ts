/**
 * Where the payload keys come from. The active key (PAYLOAD_ENCRYPTION_KEY, _ID) encrypts; when unset,
 * a development key is generated once under DATA_DIR, so that a local stack keeps decoding its own
 * history across restarts (production refuses to start without an explicit key, see config). The keys
 * of PAYLOAD_ENCRYPTION_PREVIOUS_KEYS only decrypt what they encrypted before a rotation.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { PREVIOUS_KEY_PATTERN, type Config } from '../config/env';
import { loadOrCreateSecretFile } from '../util/dev-secret-file';
import type { EncryptionKey } from './payload-codec';

const devKeyFileSchema = z.object({ keyId: z.string().min(1), key: z.string().min(1) });

export interface PayloadKeys {
  /** Encrypts everything new. */
  active: EncryptionKey;
  /** Decrypt only. */
  previous: EncryptionKey[];
}

export type PayloadKeyConfig = Pick<
  Config,
  'PAYLOAD_ENCRYPTION_KEY' | 'PAYLOAD_ENCRYPTION_KEY_ID' | 'PAYLOAD_ENCRYPTION_PREVIOUS_KEYS' | 'DATA_DIR'
>;

export function devKeyPath(dataDir: string): string {
  return path.join(dataDir, 'payload-encryption-key.json');
}

function loadOrCreateDevKey(dataDir: string): EncryptionKey {
  const stored = loadOrCreateSecretFile(devKeyPath(dataDir), devKeyFileSchema, () => ({
    keyId: `dev-${randomBytes(4).toString('hex')}`,
    key: randomBytes(32).toString('base64'),
  }));
  return { id: stored.keyId, key: Buffer.from(stored.key, 'base64') };
}

function previousKey(entry: string): EncryptionKey {
  const [, id, key] = PREVIOUS_KEY_PATTERN.exec(entry) ?? [];
  if (!id || !key) throw new Error('PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: each entry is id:base64key');
  return { id, key: Buffer.from(key, 'base64') };
}

export function resolvePayloadKeys(config: PayloadKeyConfig): PayloadKeys {
  const active = config.PAYLOAD_ENCRYPTION_KEY
    ? { id: config.PAYLOAD_ENCRYPTION_KEY_ID ?? 'default', key: Buffer.from(config.PAYLOAD_ENCRYPTION_KEY, 'base64') }
    : loadOrCreateDevKey(config.DATA_DIR);
  return { active, previous: (config.PAYLOAD_ENCRYPTION_PREVIOUS_KEYS ?? []).map(previousKey) };
}
