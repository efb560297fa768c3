/**
 * Each rail's final-status callbacks → the payout workflow of their external id, or, when the provider
 * names it only by its own transaction id, the payout whose submission the provider answered with that id; one
 * route per rail that has them.
 * Their fields are read by the rail's names (WITHDRAWAL_, PIX_COPY_PASTE_, CRYPTO_CALLBACK_FIELDS).
 */
import { PAYOUT_FLOWS } from '../../payouts/rails/methods';
import { RAIL_PROVIDERS } from '../../payouts/rails/providers';
import type { RailCallback } from '../../payouts/rails/rail-provider';
import {
  payoutWorkflowId,
  withdrawalCallbackSignal,
  withdrawalCallbackUpdate,
  type WithdrawalCallbackHint,
} from '../../lifecycles/payout-client';
import { DEFAULT_CALLBACK_FIELDS, type CallbackFieldsConfig } from '../../payment-api/schemas/callback-fields';
import { callbackRoute, UNVERIFIED } from './callback-route';

function payoutCallbackRoute({ path, kind }: RailCallback, fields: CallbackFieldsConfig) {
  return callbackRoute(fields, {
    path,
    kind,
    flows: Object.values(PAYOUT_FLOWS),
    intent: { kind: 'payout-submission', workflowId: payoutWorkflowId },
    target: ({ externalId, transactionId, status, reason, endToEndId }, receivedAt) => ({
      ...(externalId ? { workflowId: payoutWorkflowId(externalId.value) } : {}),
      ...(transactionId ? { providerId: transactionId.value } : {}),
      signal: withdrawalCallbackSignal,
      update: withdrawalCallbackUpdate,
      reference: externalId?.value ?? `provider transaction ${transactionId?.value ?? ''}`,
      hint: {
        // A status it could not read: "look now", as an unsigned callback says.
        status: status?.value ?? UNVERIFIED,
        ...(transactionId ? { transactionId: transactionId.value } : {}),
        ...(reason ? { reason: reason.value } : {}),
        ...(endToEndId ? { endToEndId: endToEndId.value } : {}),
        receivedAt: receivedAt.toISOString(),
      },
    }),
    // Unsigned: only "look now"; the status and the reason are the check's to say.
    untrusted: (hint: WithdrawalCallbackHint): WithdrawalCallbackHint => ({
      status: UNVERIFIED,
      receivedAt: hint.receivedAt,
    }),
  });
}

export function payoutCallbackRoutes(fields: CallbackFieldsConfig = DEFAULT_CALLBACK_FIELDS) {
  return Object.values(RAIL_PROVIDERS).flatMap((rail) =>
    rail.callback ? [payoutCallbackRoute(rail.callback, fields)] : [],
  );
}
