/** The engine's charges as infractions see them (placeholder until the charge lifecycle lands). */
import type { Client } from '@temporalio/client';
import type { ChargeRefundPort } from '../infractions/charge-port';

export function chargeRefunds(_temporal: Client): ChargeRefundPort {
  return {
    findByProviderTransactionId: () => Promise.resolve(null),
    recordAcceptedInfraction: () => Promise.resolve(false),
  };
}
