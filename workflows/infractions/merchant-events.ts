/** What an infraction tells the merchant's endpoints: that it was opened and its deadline nears (so it is defended in time), and how the provider resolved it. */
import { centavosToReais } from '../../src/money/centavos';
import type { MerchantEventType } from '../../src/merchant-events/merchant-event';
import type { EventPatches } from '../shared/merchant-events';
import type { InfractionView, InfractionState } from '../../src/contracts/infraction';

/** Marks the histories that announce an infraction opened and due soon. */
export const DEADLINE_EVENTS_PATCH = 'infraction-deadline-events';

export const INFRACTION_EVENT_TYPES: Partial<Record<InfractionState, MerchantEventType>> = {
  DUE_SOON: 'infraction.due_soon',
  ACCEPTED: 'infraction.accepted',
  REJECTED: 'infraction.rejected',
  CANCELLED: 'infraction.cancelled',
};

export const INFRACTION_EVENT_PATCHES: EventPatches = {
  'infraction.opened': DEADLINE_EVENTS_PATCH,
  'infraction.due_soon': DEADLINE_EVENTS_PATCH,
};

export function infractionEventData(view: InfractionView, state: InfractionState): Record<string, unknown> {
  return {
    object: 'infraction',
    infractionId: view.infractionId,
    status: state,
    // An outcome comes with a record the engine could read.
    ...(view.record
      ? {
          amount: centavosToReais(view.record.amountCents),
          providerTransactionId: view.record.transactionId,
          defenseDeadline: view.record.defenseDeadline,
        }
      : {}),
    ...(view.chargeExternalId ? { chargeExternalId: view.chargeExternalId } : {}),
    ...(view.defense ? { defense: view.defense.analise } : {}),
  };
}
