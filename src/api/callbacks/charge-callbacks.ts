/**
 * Cash-in status callbacks (sent to each charge's projectWebhook) → the charge workflow of their
 * transactionId (a derived provider reference, `_r<n>_<externalId>`, names the charge of its externalId);
 * when that is the provider's id rather than ours, the charge indexed under it.
 */
import { CASH_IN_CALLBACK_PATH } from '../../charges/callback-path';
import { externalIdOfReference } from '../../charges/provider-reference';
import { cashInCallbackSchema } from '../../payment-api/schemas/cash-in';
import { cashInCallbackSignal, chargeWorkflowId, type CashInHint, CHARGE_FLOW } from '../../lifecycles/charge-client';
import { callbackRoute } from './callback-router';

export const chargeCallbackRoute = callbackRoute({
  path: CASH_IN_CALLBACK_PATH,
  schema: cashInCallbackSchema,
  flows: [CHARGE_FLOW],
  target: (callback, receivedAt) => ({
    workflowId: chargeWorkflowId(externalIdOfReference(callback.transactionId)),
    providerId: callback.transactionId,
    signal: cashInCallbackSignal,
    reference: callback.transactionId,
    hint: { status: callback.status, ...(callback.paidAt ? { paidAt: callback.paidAt } : {}), receivedAt: receivedAt.toISOString() },
  }),
  // Unsigned: neither the status (an EXPIRED hint ends a charge) nor when it was paid; only "look now".
  untrusted: (hint: CashInHint): CashInHint => ({ status: 'UNVERIFIED', receivedAt: hint.receivedAt }),
});
