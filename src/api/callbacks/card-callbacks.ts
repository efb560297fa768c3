/**
 * PAYMENT_UPDATED → the card payment workflow of its `externalReference` (the engine sends its
 * externalId there). A signed callback's hint carries the provider's payment id, so it can settle a payment
 * whose answer from endpoint 2 never reached the workflow; an unsigned one carries none. A callback without
 * a reference is kept as unmatched.
 */
import { cardCallbackSchema } from '../../payment-api/schemas/card';
import { CARD_PAYMENT_FLOW, cardCallbackSignal, cardPaymentWorkflowId, type CardCallbackHint } from '../../lifecycles/card-payment-client';
import { CARD_CALLBACK_PATH } from '../card-payments/checkout-service';
import { callbackRoute } from './callback-router';

export const cardCallbackRoute = callbackRoute({
  path: CARD_CALLBACK_PATH,
  schema: cardCallbackSchema,
  flows: [CARD_PAYMENT_FLOW],
  target: (callback, receivedAt) => ({
    // No reference: no workflow to name, so the callback lands with the unmatched ones.
    ...(callback.externalReference ? { workflowId: cardPaymentWorkflowId(callback.externalReference) } : {}),
    signal: cardCallbackSignal,
    reference: callback.externalReference ?? `card payment ${callback.id}`,
    hint: { paymentId: callback.id, status: callback.status, receivedAt: receivedAt.toISOString() },
  }),
  // Unsigned: anyone may have sent it, so it names no payment the workflow could take for its own: "look now" only.
  untrusted: ({ receivedAt }: CardCallbackHint): CardCallbackHint => ({ status: 'UNVERIFIED', receivedAt }),
});
