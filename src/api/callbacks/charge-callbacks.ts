/** Cash-in status callbacks (sent to each charge's projectWebhook) → the charge workflow of their transactionId. */
import { CASH_IN_CALLBACK_PATH } from '../../charges/callback-path';
import { cashInCallbackSchema } from '../../payment-api/schemas/cash-in';
import { cashInCallbackSignal, chargeWorkflowId } from '../../../workflows/charge/messages';
import { callbackRoute } from './callback-router';

export const chargeCallbackRoute = callbackRoute({
  path: CASH_IN_CALLBACK_PATH,
  schema: cashInCallbackSchema,
  target: (callback, receivedAt) => ({
    workflowId: chargeWorkflowId(callback.transactionId),
    signal: cashInCallbackSignal,
    reference: callback.transactionId,
    hint: { status: callback.status, ...(callback.paidAt ? { paidAt: callback.paidAt } : {}), receivedAt: receivedAt.toISOString() },
  }),
});
