/**
 * Each rail's final-status callbacks → the payout workflow of their `external_id`, or, when the provider
 * names it only by its own `transaction_id`, the payout indexed under that id; one route per rail that has them.
 */
import { PAYOUT_FLOWS } from '../../payouts/rails/methods';
import { RAIL_PROVIDERS } from '../../payouts/rails/providers';
import type { RailCallback } from '../../payouts/rails/rail-provider';
import { payoutWorkflowId, withdrawalCallbackSignal, type WithdrawalCallbackHint } from '../../lifecycles/payout-client';
import { callbackRoute } from './callback-router';
import { readEndToEndId } from '../../pix/end-to-end-id';

function payoutCallbackRoute({ path, schema }: RailCallback) {
  return callbackRoute({
    path,
    schema,
    flows: Object.values(PAYOUT_FLOWS),
    target: (callback, receivedAt) => ({
      ...(callback.external_id ? { workflowId: payoutWorkflowId(callback.external_id) } : {}),
      ...(callback.transaction_id ? { providerId: callback.transaction_id } : {}),
      signal: withdrawalCallbackSignal,
      reference: callback.external_id ?? `provider transaction ${callback.transaction_id ?? ''}`,
      hint: {
        status: callback.status,
        ...(callback.transaction_id ? { transactionId: callback.transaction_id } : {}),
        ...(callback.reason ? { reason: callback.reason } : {}),
        ...endToEndIdOf(callback),
        receivedAt: receivedAt.toISOString(),
      },
    }),
    // Unsigned: only "look now"; the status and the reason are the check's to say.
    untrusted: (hint: WithdrawalCallbackHint): WithdrawalCallbackHint => ({ status: UNVERIFIED, receivedAt: hint.receivedAt }),
  });
}

/** The PIX end-to-end id a signed callback names (under any spelling the reader knows), when it names one. */
function endToEndIdOf(callback: object): { endToEndId?: string } {
  const endToEndId = readEndToEndId(callback);
  return endToEndId ? { endToEndId } : {};
}

/** The status an untrusted hint carries: no provider claim at all. */
const UNVERIFIED = 'UNVERIFIED';

export const payoutCallbackRoutes = Object.values(RAIL_PROVIDERS).flatMap((rail) => (rail.callback ? [payoutCallbackRoute(rail.callback)] : []));
