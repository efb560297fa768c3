/** Each rail's final-status callbacks → the payout workflow of their `external_id`, one route per rail that has them. */
import { RAIL_PROVIDERS } from '../../payouts/rails/providers';
import type { RailCallback } from '../../payouts/rails/rail-provider';
import { payoutWorkflowId, withdrawalCallbackSignal } from '../../../workflows/payout/messages';
import { callbackRoute } from './callback-router';

function payoutCallbackRoute({ path, schema }: RailCallback) {
  return callbackRoute({
    path,
    schema,
    target: (callback, receivedAt) => ({
      workflowId: payoutWorkflowId(callback.external_id),
      signal: withdrawalCallbackSignal,
      reference: callback.external_id,
      hint: {
        status: callback.status,
        ...(callback.transaction_id ? { transactionId: callback.transaction_id } : {}),
        ...(callback.reason ? { reason: callback.reason } : {}),
        receivedAt: receivedAt.toISOString(),
      },
    }),
  });
}

export const payoutCallbackRoutes = Object.values(RAIL_PROVIDERS).flatMap((rail) => (rail.callback ? [payoutCallbackRoute(rail.callback)] : []));
