/**
 * PAYMENT_UPDATED → the card payment workflow of its `externalReference` (the engine sends its
 * externalId there). The hint carries the provider's payment id, so it can settle a payment whose
 * answer from endpoint 2 never reached the workflow; a callback without a reference is kept as unmatched.
 */
import { cardCallbackSchema } from '../../payment-api/schemas/card';
import { cardCallbackSignal, cardPaymentWorkflowId } from '../../../workflows/card-payment/messages';
import { CARD_CALLBACK_PATH } from '../card-payments/checkout-service';
import { callbackRoute } from './callback-router';

export const cardCallbackRoute = callbackRoute({
  path: CARD_CALLBACK_PATH,
  schema: cardCallbackSchema,
  target: (callback, receivedAt) => ({
    // No reference: an id no workflow has, so the callback lands with the unmatched ones.
    workflowId: callback.externalReference ? cardPaymentWorkflowId(callback.externalReference) : `card-payment-id:${callback.id}`,
    signal: cardCallbackSignal,
    reference: callback.externalReference ?? `card payment ${callback.id}`,
    hint: { paymentId: callback.id, status: callback.status, receivedAt: receivedAt.toISOString() },
  }),
});
