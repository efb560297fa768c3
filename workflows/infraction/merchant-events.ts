/** What an infraction tells the merchant's endpoints: how the provider resolved it. */
import { centavosToReais } from '../../src/money/centavos';
import type { MerchantEventType } from '../../src/webhooks/merchant-event';
import type { InfractionView, InfractionState } from './messages';

export const INFRACTION_EVENT_TYPES: Partial<Record<InfractionState, MerchantEventType>> = {
  ACCEPTED: 'infraction.accepted',
  REJECTED: 'infraction.rejected',
  CANCELLED: 'infraction.cancelled',
};

export function infractionEventData(view: InfractionView, state: InfractionState): Record<string, unknown> {
  return {
    object: 'infraction',
    infractionId: view.infractionId,
    status: state,
    // An outcome comes with a record the engine could read.
    ...(view.record ? { amount: centavosToReais(view.record.amountCents), providerTransactionId: view.record.transactionId } : {}),
    ...(view.chargeExternalId ? { chargeExternalId: view.chargeExternalId } : {}),
    ...(view.defense ? { defense: view.defense.analise } : {}),
  };
}
