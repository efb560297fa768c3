/**
 * Endpoints 4 and 4a: POST /api/withdrawals/withdraw (alias POST /api/payments/withdrawal), and the
 * withdrawal's final-status callback to clientCallbackUrl.
 */
import { z } from 'zod';
import { PIX_KEY_TYPES } from '../../pix/keys';
import {
  acceptSpellings,
  callbackUrlSchema,
  clientIdentifierSchema,
  descriptionSchema,
  gatewaySchema,
  nonBlankTextSchema,
  payoutCallbackSchema,
  openEnum,
  requestAmountSchema,
  responseAmountSchema,
  timestampSchema,
  TRANSACTION_ID_SPELLINGS,
  transactionRecord,
} from './common';

export { PIX_KEY_TYPES };

/** Initial state PROCESSING (spec); COMPLETED and FAILED are the final states (our choice). */
export const WITHDRAWAL_STATUSES = ['PROCESSING', 'COMPLETED', 'FAILED'] as const;
export const WITHDRAWAL_FINAL_STATUSES = ['COMPLETED', 'FAILED'] as const;
export type WithdrawalFinalStatus = (typeof WITHDRAWAL_FINAL_STATUSES)[number];

export const withdrawalRequestSchema = z
  .strictObject({
    amount: requestAmountSchema,
    external_id: clientIdentifierSchema,
    // Whether the key fits its key_type is a business check (422 INVALID_PIX_KEY), not a shape check.
    pix_key: nonBlankTextSchema(77),
    key_type: z.enum(PIX_KEY_TYPES, { message: `must be one of ${PIX_KEY_TYPES.join(', ')}` }),
    clientCallbackUrl: callbackUrlSchema,
    description: descriptionSchema.optional(),
    gateway: gatewaySchema.optional(),
  })
  .meta({ id: 'WithdrawalRequest' });
export type WithdrawalRequest = z.input<typeof withdrawalRequestSchema>;

/**
 * The object a PIX payout (a withdrawal, or a copy-and-paste payment, which mirrors it) is described by
 * in responses: snake_case, as in the spec.
 */
function pixOutObjectSchema<const T extends string>(type: T) {
  return acceptSpellings(
    TRANSACTION_ID_SPELLINGS.snake,
    z.looseObject({
      transaction_id: z.string().min(1),
      external_id: z.string().min(1),
      status: openEnum(WITHDRAWAL_STATUSES),
      amount: responseAmountSchema,
      fee: responseAmountSchema,
      total: responseAmountSchema,
      type: openEnum([type]),
    }),
  );
}

/** A PIX payout's final-status callback: its object itself, with `reason` on failure and `updated_at` (the sandbox sends all of it). */
export function pixOutCallbackSchema<const T extends string>(type: T) {
  return payoutCallbackSchema(WITHDRAWAL_FINAL_STATUSES, {
    /** What `callbackTypeOf` routes by, when a single ingress takes every kind. */
    type: openEnum([type]).optional(),
    reason: z.string().optional(),
    /** End-to-end id of the PIX, when the transfer settled (sandbox sends it on COMPLETED). */
    end_to_end_id: z.string().optional(),
    updated_at: timestampSchema.optional(),
  });
}

/**
 * A PIX payout's answer when its request is accepted: the provider's message, its transactionId, and under `key` the
 * payout's object (`type` its observed type value).
 */
export function pixOutResponseSchema<const K extends string>(key: K, type: string, id: string) {
  const named = { [key]: pixOutObjectSchema(type) } as Record<K, ReturnType<typeof pixOutObjectSchema>>;
  return transactionRecord({ message: z.string(), transactionId: z.string().min(1), ...named }).meta({ id });
}

export const withdrawalResponseSchema = pixOutResponseSchema('withdrawal', 'Withdrawal', 'WithdrawalResponse');
export const withdrawalCallbackSchema = pixOutCallbackSchema('Withdrawal');
