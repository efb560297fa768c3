/** What the provider answered for a charge, as the sandbox's record of it shows, in either sandbox profile. */
import { seedChargeCode } from '../../sandbox/profiles/seed-profile';
import type { Config } from '../../src/config/env';

/**
 * The code the provider answered for a charge it keeps (`details.qrcode`, the sandbox's static code): that very
 * code, or, in the seed profile, its dynamic form, which is what left the provider.
 */
export function answeredCode(
  config: Pick<Config, 'SANDBOX_PROFILE'>,
  operation: { transactionId: string; details: { qrcode?: string } } | undefined,
): string | undefined {
  const stored = operation?.details.qrcode;
  if (stored === undefined || config.SANDBOX_PROFILE !== 'seed') return stored;
  return seedChargeCode(stored, operation?.transactionId ?? '');
}
