/**
 * How a card payment is indexed from its start request: its flow, state and amount (no payer data),
 * so it is findable as AWAITING_CARD before a worker has run it.
 */
import type { SearchAttributePair } from '@temporalio/common';
import type { CardPaymentInput } from '../../src/card-payments/card-payment-input';
import { AmountCents, CardPaymentStatus, Flow } from '../../src/temporal/search-attributes';

export const CARD_PAYMENT_FLOW = 'card-payment';

export function cardPaymentStartAttributes(input: CardPaymentInput): SearchAttributePair[] {
  return [
    { key: Flow, value: CARD_PAYMENT_FLOW },
    { key: CardPaymentStatus, value: 'AWAITING_CARD' },
    { key: AmountCents, value: input.order.amountCents },
  ];
}
