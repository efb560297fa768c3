/**
 * Which rails the engine can pay by, as configured. Crypto needs the provider's route that creates a
 * withdrawal, which the spec does not show (rule 6): without PAYMENT_API_CRYPTO_WITHDRAW_PATH the rail is
 * off, and a crypto payout is refused before anything starts (the fee quote, endpoint 12, still answers).
 */
import type { Config } from '../../config/env';
import type { PayoutMethod } from './methods';

export type RailSettings = Pick<Config, 'PAYMENT_API_CRYPTO_WITHDRAW_PATH'>;

/** Why a rail cannot be used, or undefined when it can. */
export function railUnavailable(method: PayoutMethod, settings: RailSettings): string | undefined {
  if (method === 'crypto' && settings.PAYMENT_API_CRYPTO_WITHDRAW_PATH === undefined) {
    return "crypto payouts are off: the provider's route that creates a crypto withdrawal is not configured (PAYMENT_API_CRYPTO_WITHDRAW_PATH)";
  }
  return undefined;
}
