/**
 * Where the payload key comes from: PAYLOAD_ENCRYPTION_KEY(_ID) when set; otherwise a development key
 * generated once under DATA_DIR, so that a local stack keeps decoding its own history across restarts.
 * Production refuses to start without an explicit key (see config).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config/env';
import type { EncryptionKey } from './payload-codec';

const devKeyFileSchema = z.object({ keyId: z.string().min(1), key: z.string().min(1) });

export function devKeyPath(dataDir: string): string {
  return path.join(dataDir, 'payload-encryption-key.json');
}

function loadOrCreateDevKey(dataDir: string): EncryptionKey {
  const file = devKeyPath(dataDir);
  try {
    const parsed = devKeyFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    return { id: parsed.keyId, key: Buffer.from(parsed.key, 'base64') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const created = { keyId: `dev-${randomBytes(4).toString('hex')}`, key: randomBytes(32).toString('base64') };
  try {
    writeFileSync(file, JSON.stringify(created) + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process of the stack created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateDevKey(dataDir);
    throw error;
  }
  return { id: created.keyId, key: Buffer.from(created.key, 'base64') };
}

export function resolveEncryptionKey(config: Pick<Config, 'PAYLOAD_ENCRYPTION_KEY' | 'PAYLOAD_ENCRYPTION_KEY_ID' | 'DATA_DIR'>): EncryptionKey {
  if (config.PAYLOAD_ENCRYPTION_KEY) {
    return { id: config.PAYLOAD_ENCRYPTION_KEY_ID ?? 'default', key: Buffer.from(config.PAYLOAD_ENCRYPTION_KEY, 'base64') };
  }
  return loadOrCreateDevKey(config.DATA_DIR);
}
