/**
 * PAYMENT_UPDATED → the card payment workflow of its `externalReference` (the engine sends its
 * externalId there). A signed callback's hint carries the provider's payment id, so it can settle a payment
 * whose answer from endpoint 2 never reached the workflow; an unsigned one carries none. A callback without
 * a reference the engine can read is kept as unmatched. Read by CARD_CALLBACK_FIELDS.
 */
import { DEFAULT_CALLBACK_FIELDS, type CallbackFieldsConfig } from '../../payment-api/schemas/callback-fields';
import {
  CARD_PAYMENT_FLOW,
  cardCallbackSignal,
  cardPaymentWorkflowId,
  type CardCallbackHint,
} from '../../lifecycles/card-payment-client';
import { CARD_CALLBACK_PATH } from '../card-payments/checkout-service';
import { callbackRoute, UNVERIFIED } from './callback-route';

export function cardCallbackRoute(fields: CallbackFieldsConfig = DEFAULT_CALLBACK_FIELDS) {
  return callbackRoute(fields, {
    path: CARD_CALLBACK_PATH,
    kind: 'card',
    flows: [CARD_PAYMENT_FLOW],
    target: ({ externalReference, id, status }, receivedAt) => ({
      // Asked only with a reference read (`routedBy`).
      workflowId: cardPaymentWorkflowId(externalReference?.value ?? ''),
      signal: cardCallbackSignal,
      reference: externalReference?.value ?? '',
      hint: {
        ...(id ? { paymentId: id.value } : {}),
        status: status?.value ?? UNVERIFIED,
        receivedAt: receivedAt.toISOString(),
      },
    }),
    // Unsigned: anyone may have sent it, so it names no payment the workflow could take for its own: "look now" only.
    untrusted: ({ receivedAt }: CardCallbackHint): CardCallbackHint => ({ status: UNVERIFIED, receivedAt }),
  });
}
