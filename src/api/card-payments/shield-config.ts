/**
 * Where the buyer's browser finds the provider's security module: the spec's {shield_script_url},
 * {shield_settings_url} and <PUBLIC_KEY>, three configured values. Each defaults to the sandbox's layout
 * under PAYMENT_BROWSER_BASE_URL (or PAYMENT_API_BASE_URL), so a fresh clone needs no setting.
 */
import type { Config } from '../../config/env';
import { ShieldPublicKey } from './shield-public-key';

export type ShieldStepOrder = Config['PAYMENT_SHIELD_STEP_ORDER'];
export type ShieldArguments = Config['PAYMENT_SHIELD_ARGUMENTS'];

export interface ShieldConfig {
  scriptUrl: string;
  settingsUrl: string;
  stepOrder: ShieldStepOrder;
  arguments: ShieldArguments;
  /** Every origin the page's script, fetches and the module's frames may come from (its CSP). */
  origins: readonly string[];
  publicKey: ShieldPublicKey;
  /** The expected hash of the provider's script (`sha384-…`), PAYMENT_SHIELD_SCRIPT_INTEGRITY. */
  integrity?: string | undefined;
}

export function shieldConfig(config: Config): ShieldConfig {
  const browserBase = config.PAYMENT_BROWSER_BASE_URL ?? config.PAYMENT_API_BASE_URL;
  const scriptUrl = config.PAYMENT_SHIELD_SCRIPT_URL ?? `${browserBase}/shield/shield.js`;
  const settingsUrl = config.PAYMENT_SHIELD_SETTINGS_URL ?? `${browserBase}/shield/settings`;
  // The module talks to its own origin (3DS sessions, the challenge frame): the script's, the settings' and the base's.
  const origins = [...new Set([scriptUrl, settingsUrl, browserBase].map((url) => new URL(url).origin))];
  return {
    scriptUrl,
    settingsUrl,
    stepOrder: config.PAYMENT_SHIELD_STEP_ORDER,
    arguments: config.PAYMENT_SHIELD_ARGUMENTS,
    origins,
    publicKey: new ShieldPublicKey(
      config.PAYMENT_SHIELD_PUBLIC_KEY === undefined
        ? { baseUrl: config.PAYMENT_API_BASE_URL, timeoutMs: config.PAYMENT_API_TIMEOUT_MS }
        : { configured: config.PAYMENT_SHIELD_PUBLIC_KEY },
    ),
    integrity: config.PAYMENT_SHIELD_SCRIPT_INTEGRITY,
  };
}
