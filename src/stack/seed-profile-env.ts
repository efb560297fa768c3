/**
 * `SANDBOX_PROFILE=seed npm start`: the local sandbox plays a provider that keeps to the spec, and the
 * engine is configured for it as it would be for a real one: callbacks that are not signed by the
 * documented scheme taken as hints (`optional`; `off` when the sandbox signs with another scheme), and the
 * shield's public key given as a file the sandbox writes at start-up (it serves no /shield/public-key).
 * A value set in the environment wins.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/env';

/** Where the seed-profile sandbox writes its shield public key (PEM) for the engine. */
export function shieldPublicKeyFile(dataDir: string): string {
  return path.join(dataDir, 'sandbox-shield-public-key.pem');
}

export function writeShieldPublicKey(dataDir: string, pem: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = shieldPublicKeyFile(dataDir);
  writeFileSync(file, pem + '\n', { mode: 0o644 });
  return file;
}

/** What the engine's processes add to their environment for the seed profile; nothing otherwise. */
export function seedProfileEngineEnv(config: Config, env: NodeJS.ProcessEnv): Record<string, string> {
  if (config.SANDBOX_PROFILE !== 'seed') return {};
  return {
    ...(env.PROVIDER_CALLBACK_SIGNATURES ? {} : { PROVIDER_CALLBACK_SIGNATURES: config.SANDBOX_CALLBACK_SIGNATURE === 'alt' ? 'off' : 'optional' }),
    ...(env.PAYMENT_SHIELD_PUBLIC_KEY ? {} : { PAYMENT_SHIELD_PUBLIC_KEY: shieldPublicKeyFile(config.DATA_DIR) }),
  };
}
