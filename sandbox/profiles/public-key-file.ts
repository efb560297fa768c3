/**
 * A sandbox without GET /shield/public-key (the seed profile) writes its key where the engine's
 * PAYMENT_SHIELD_PUBLIC_KEY can name it, as an operator would save a real provider's key.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function shieldPublicKeyFile(dataDir: string): string {
  return path.join(dataDir, 'sandbox-shield-public-key.pem');
}

export function writeShieldPublicKey(dataDir: string, pem: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = shieldPublicKeyFile(dataDir);
  writeFileSync(file, pem + '\n', { mode: 0o644 });
  return file;
}
