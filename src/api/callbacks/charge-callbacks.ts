/**
 * Cash-in status callbacks (sent to each charge's projectWebhook) → the charge workflow of their
 * transaction id (a derived provider reference, `_r<n>_<externalId>`, names the charge of its externalId);
 * when that is the provider's id rather than ours, the charge indexed under it. Read by CASH_IN_CALLBACK_FIELDS.
 */
import { CASH_IN_CALLBACK_PATH } from '../../charges/callback-path';
import { externalIdOfReference } from '../../charges/provider-reference';
import { DEFAULT_CALLBACK_FIELDS, type CallbackFieldsConfig } from '../../payment-api/schemas/callback-fields';
import { cashInCallbackSignal, chargeWorkflowId, type CashInHint, CHARGE_FLOW } from '../../lifecycles/charge-client';
import { callbackRoute, UNVERIFIED } from './callback-route';

export function chargeCallbackRoute(fields: CallbackFieldsConfig = DEFAULT_CALLBACK_FIELDS) {
  return callbackRoute(fields, {
    path: CASH_IN_CALLBACK_PATH,
    kind: 'cash-in',
    flows: [CHARGE_FLOW],
    target: ({ transactionId, status, paidAt }, receivedAt) => {
      // Asked only with an id read (`routedBy`).
      const id = transactionId?.value ?? '';
      return {
        workflowId: chargeWorkflowId(externalIdOfReference(id)),
        providerId: id,
        signal: cashInCallbackSignal,
        reference: id,
        hint: {
          status: status?.value ?? UNVERIFIED,
          ...(paidAt ? { paidAt: paidAt.value } : {}),
          receivedAt: receivedAt.toISOString(),
        },
      };
    },
    // Unsigned: neither the status (an EXPIRED hint ends a charge) nor when it was paid; only "look now".
    untrusted: (hint: CashInHint): CashInHint => ({ status: UNVERIFIED, receivedAt: hint.receivedAt }),
  });
}
