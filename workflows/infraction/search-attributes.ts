/** How an infraction is indexed from its start: its flow, state, amount and due time (no payer data). */
import type { SearchAttributePair } from '@temporalio/common';
import type { InfractionRecord } from '../../src/infractions/infraction-record';
import { AmountCents, InfractionDueAt, InfractionStatus, Flow } from '../../src/temporal/search-attributes';

export const INFRACTION_FLOW = 'med-infraction';

export function infractionStartAttributes(record: InfractionRecord): SearchAttributePair[] {
  return [
    { key: Flow, value: INFRACTION_FLOW },
    { key: InfractionStatus, value: 'OPEN' },
    { key: AmountCents, value: record.amountCents },
    { key: InfractionDueAt, value: new Date(record.defenseDeadline) },
  ];
}
