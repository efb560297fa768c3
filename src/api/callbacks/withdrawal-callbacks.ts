/** Withdrawal final-status callbacks → the payout workflow of their `external_id`. */
import { withdrawalCallbackSchema } from '../../payment-api/schemas/withdrawal';
import { payoutWorkflowId, withdrawalCallbackSignal } from '../../../workflows/payout/messages';
import { callbackRoute } from './callback-router';

export const withdrawalCallbackRoute = callbackRoute({
  path: '/callbacks/withdrawals',
  schema: withdrawalCallbackSchema,
  target: (callback, receivedAt) => ({
    workflowId: payoutWorkflowId(callback.external_id),
    signal: withdrawalCallbackSignal,
    reference: callback.external_id,
    hint: {
      status: callback.status,
      transactionId: callback.transaction_id,
      ...(callback.reason ? { reason: callback.reason } : {}),
      receivedAt: receivedAt.toISOString(),
    },
  }),
});
