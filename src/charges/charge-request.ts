/**
 * The merchant's PIX charge (cash-in): camelCase JSON at the boundary, normalized inside to centavos and
 * a document of digits. The shape (refused with 400) is what the OpenAPI document states; the check digits
 * of the payer's document come after (422), as for payouts.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { positiveReaisToCentavosSchema } from '../money/reais-schemas';
import { externalIdSchema } from '../validation/external-id';
import { unmaskedDocument, documentFormSchema } from '../validation/document';
import { plainTextSchema } from '../validation/plain-text';

const MAX_CHARGE_REAIS = 1_000_000;
/** The provider's own charges live an hour (docs/assumptions.md): a longer expiry would never be reached. */
export const MAX_EXPIRES_IN_SECONDS = 3_600;
export const DEFAULT_EXPIRES_IN_SECONDS = 3_600;

const emailSchema = z
  .email('must be an e-mail address')
  .max(254)
  .transform((email) => email.toLowerCase());
const nameSchema = plainTextSchema.min(1).max(120);

export const chargeShapeSchema = z
  .strictObject({
    externalId: externalIdSchema,
    amount: positiveReaisToCentavosSchema(MAX_CHARGE_REAIS),
    payer: z.strictObject({ name: nameSchema, document: documentFormSchema, email: emailSchema.optional() }),
    description: plainTextSchema.max(140).optional(),
    expiresInSeconds: z.number().int().min(1).max(MAX_EXPIRES_IN_SECONDS).optional(),
    /** Part of the payment credited to another user of the provider. */
    split: z
      .strictObject({
        email: emailSchema,
        percent: z
          .number()
          .gt(0)
          .lte(100)
          .refine(
            (value) => Number.isInteger(Math.round(value * 100)) && /^\d+(\.\d{1,2})?$/.test(String(value)),
            'must have at most 2 decimal places',
          )
          .meta({ multipleOf: 0.01 }),
      })
      .optional(),
  })
  .meta({ id: 'ChargeRequest' });

export interface ChargeRequest {
  externalId: string;
  amountCents: number;
  payer: { name: string; document: string; email?: string };
  description?: string;
  expiresInSeconds: number;
  split?: { email: string; percent: number };
}

export const chargeRequestSchema = chargeShapeSchema.transform((shape, ctx): ChargeRequest => {
  const description = shape.description?.trim();
  if (shape.payer.name.trim() === '')
    ctx.addIssue({ code: 'custom', path: ['payer', 'name'], message: 'must not be blank' });
  return {
    externalId: shape.externalId,
    amountCents: shape.amount,
    payer: {
      name: shape.payer.name.trim(),
      document: unmaskedDocument(shape.payer.document, ctx, ['payer', 'document']),
      ...(shape.payer.email ? { email: shape.payer.email } : {}),
    },
    ...(description ? { description } : {}),
    expiresInSeconds: shape.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS,
    ...(shape.split ? { split: shape.split } : {}),
  };
});

/** Same request ⇔ same hash: a retry of the same body is the same charge, a different body under the same id a conflict. */
export function chargeRequestHash(request: ChargeRequest): string {
  const parts = [
    request.externalId,
    request.amountCents,
    request.payer.name,
    request.payer.document,
    request.payer.email ?? null,
    request.description ?? null,
    request.expiresInSeconds,
    request.split?.email ?? null,
    request.split?.percent ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
