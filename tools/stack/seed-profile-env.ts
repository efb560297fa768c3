/**
 * `SANDBOX_PROFILE=seed npm start`: the local sandbox plays a provider that keeps to the spec, and the
 * engine is configured for it as it would be for a real one: callbacks that are not signed by the
 * documented scheme taken as hints (`optional`; `off` when the sandbox signs with another scheme), and the
 * shield's public key given as the file the sandbox writes at start-up (it serves no /shield/public-key).
 * A value set in the environment wins.
 */
import type { Config } from '../../src/config/env';
import { shieldPublicKeyFile } from '../../sandbox/profiles/public-key-file';

/** What the engine's processes add to their environment for the seed profile; nothing otherwise. */
export function seedProfileEngineEnv(config: Config, env: NodeJS.ProcessEnv): Record<string, string> {
  if (config.SANDBOX_PROFILE !== 'seed') return {};
  return {
    ...(env.PROVIDER_CALLBACK_SIGNATURES
      ? {}
      : { PROVIDER_CALLBACK_SIGNATURES: config.SANDBOX_CALLBACK_SIGNATURE === 'alt' ? 'off' : 'optional' }),
    ...(env.PAYMENT_SHIELD_PUBLIC_KEY ? {} : { PAYMENT_SHIELD_PUBLIC_KEY: shieldPublicKeyFile(config.DATA_DIR) }),
  };
}
