/** PIX withdrawal to a key (endpoint 4): the key checked against its type and normalized. */
import { z } from 'zod';
import { pixKeyTypeSchema, validatePixKey, type PixKeyType } from '../../../pix/keys';
import { externalIdSchema } from '../../../validation/external-id';
import { descriptionSchema, payoutAmountSchema, railPayout, refuse } from '../fields';

export const pixKeyRequestSchema = z.strictObject({
  externalId: externalIdSchema,
  method: z.literal('pix_key').optional(),
  amount: payoutAmountSchema,
  pixKey: z.string().min(1, 'pixKey is required').max(77),
  keyType: pixKeyTypeSchema,
  description: descriptionSchema.optional(),
});

export interface PixKeyPayout {
  method: 'pix_key';
  externalId: string;
  amountCents: number;
  pixKey: string;
  keyType: PixKeyType;
  description?: string;
}

export function normalizePixKey(
  request: z.output<typeof pixKeyRequestSchema>,
  ctx: z.RefinementCtx,
): PixKeyPayout | typeof z.NEVER {
  const key = validatePixKey(request.keyType, request.pixKey);
  if (!key.ok) return refuse(ctx, [{ path: ['pixKey'], message: key.message }]);
  return railPayout('pix_key', request, request.amount, { pixKey: key.normalized, keyType: request.keyType });
}

/** The fingerprint's parts; unchanged since before rails existed, so older payouts and batches still match. */
export function pixKeyHashParts(payout: PixKeyPayout): unknown[] {
  return [payout.externalId, payout.amountCents, payout.keyType, payout.pixKey, payout.description ?? null];
}
