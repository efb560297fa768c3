/**
 * A stack whose provider is the sandbox it starts: the engine is configured for the sandbox as it would be
 * for a real provider, with the sandbox's crypto withdrawal route (the spec shows none, so the engine has no
 * default and a real deployment names its provider's: docs/provider-integration.md). A value set in the
 * environment wins; an engine pointed at another provider gets nothing from here.
 */
import type { Config } from '../../src/config/env';
import { endpoints } from '../../src/payment-api/endpoints';

/** The route on which the sandbox creates crypto withdrawals. */
export const SANDBOX_CRYPTO_WITHDRAW_PATH = endpoints.createCryptoWithdrawal.path;

/**
 * What the engine's processes add to their environment when their provider is the sandbox on SANDBOX_PORT. The
 * seed profile, keeping to the spec, serves no crypto route: against it the rail stays off.
 */
export function sandboxProviderEngineEnv(
  config: Pick<Config, 'PAYMENT_API_BASE_URL' | 'SANDBOX_PORT' | 'SANDBOX_PROFILE'>,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  if (
    config.PAYMENT_API_BASE_URL !== `http://127.0.0.1:${config.SANDBOX_PORT}` ||
    config.SANDBOX_PROFILE === 'seed' ||
    env.PAYMENT_API_CRYPTO_WITHDRAW_PATH
  )
    return {};
  return { PAYMENT_API_CRYPTO_WITHDRAW_PATH: SANDBOX_CRYPTO_WITHDRAW_PATH };
}
