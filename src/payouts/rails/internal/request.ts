/** Internal transfer (endpoint 11) to another user of the provider, addressed by e-mail. */
import { z } from 'zod';
import { externalIdSchema } from '../../../validation/external-id';
import { descriptionSchema, payoutAmountSchema, railPayout } from '../fields';

export const internalRequestSchema = z.strictObject({
  externalId: externalIdSchema,
  method: z.literal('internal'),
  email: z
    .email('must be an e-mail address')
    .max(254)
    .transform((email) => email.toLowerCase()),
  amount: payoutAmountSchema,
  description: descriptionSchema.optional(),
});

export interface InternalPayout {
  method: 'internal';
  externalId: string;
  amountCents: number;
  email: string;
  description?: string;
}

export function normalizeInternal(request: z.output<typeof internalRequestSchema>): InternalPayout {
  return railPayout('internal', request, request.amount, { email: request.email });
}

export function internalHashParts(payout: InternalPayout): unknown[] {
  return [payout.method, payout.externalId, payout.amountCents, payout.email, payout.description ?? null];
}
