/** The merchant's payout request: camelCase JSON at the boundary, centavos and a normalized key inside. */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { positiveReaisToCentavosSchema } from '../../money/centavos';
import { pixKeyTypeSchema, validatePixKey } from '../../pix/keys';

/** Merchant-chosen ids end up in workflow ids and URLs: keep them printable and bounded. */
export const externalIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/, 'must be 1-64 characters: letters, digits, dot, dash, underscore, colon; starting with a letter or digit');

const MAX_PAYOUT_CENTAVOS = 100_000_000; // R$ 1,000,000.00 per payout, the sandbox's documented bound

export const payoutRequestSchema = z
  .object({
    externalId: externalIdSchema,
    amount: positiveReaisToCentavosSchema.refine((centavos) => centavos <= MAX_PAYOUT_CENTAVOS, 'amount must be at most 1000000.00'),
    pixKey: z.string().trim().min(1, 'pixKey is required').max(77),
    keyType: pixKeyTypeSchema,
    description: z.string().trim().max(140).optional(),
  })
  .strict()
  .transform((request, ctx) => {
    const key = validatePixKey(request.keyType, request.pixKey);
    if (!key.ok) {
      ctx.addIssue({ code: 'custom', path: ['pixKey'], message: key.message });
      return z.NEVER;
    }
    return {
      externalId: request.externalId,
      amountCents: request.amount,
      pixKey: key.normalized,
      keyType: request.keyType,
      ...(request.description ? { description: request.description } : {}),
    };
  });

export type PayoutRequest = z.output<typeof payoutRequestSchema>;

/** Same request ⇔ same hash: a retry of the same body is recognized, a different body under the same id is a conflict. */
export function payoutRequestHash(request: PayoutRequest): string {
  const canonical = JSON.stringify([request.externalId, request.amountCents, request.keyType, request.pixKey, request.description ?? null]);
  return createHash('sha256').update(canonical).digest('hex');
}
