/** How a charge is indexed from its start: its flow, state and amount (no payer data). */
import type { SearchAttributePair } from '@temporalio/common';
import type { ChargeRequest } from '../../src/charges/charge-request';
import { AmountCents, ChargeStatus, Flow } from '../../src/temporal/search-attributes';

export const CHARGE_FLOW = 'pix-cash-in';

export function chargeStartAttributes(request: ChargeRequest): SearchAttributePair[] {
  return [
    { key: Flow, value: CHARGE_FLOW },
    { key: ChargeStatus, value: 'PENDING' },
    { key: AmountCents, value: request.amountCents },
  ];
}
