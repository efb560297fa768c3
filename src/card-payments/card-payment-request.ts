/**
 * The merchant's card payment request (POST /v1/card-payments): reais and masked documents at the
 * boundary, integer centavos and digits inside. No card data: the buyer types the card on the checkout
 * page, and it goes from there to the provider only.
 *
 * Two steps, as for payouts: the shape (`cardPaymentShapeSchema`, exactly what the OpenAPI document
 * states, refused with 400), then the rules no JSON Schema states (a document's check digits, a phone's
 * form, text that is only blanks), refused with 422 by `cardPaymentRequestSchema`.
 */
import { z } from 'zod';
import { positiveReaisToCentavosSchema } from '../money/reais-schemas';
import { MAX_INSTALLMENTS } from '../payment-api/schemas/card';
import { emailSchema, MAX_OPERATION_REAIS } from '../payment-api/schemas/common';
import { externalIdSchema } from '../validation/external-id';
import { TAX_DOCUMENT_FORMS, TAX_DOCUMENT_PATTERN, validateTaxDocument } from '../validation/document';
import { phoneSchema } from '../validation/phone';
import { plainTextSchema } from '../validation/plain-text';

const MAX_ITEMS = 50;
const amountSchema = positiveReaisToCentavosSchema(MAX_OPERATION_REAIS);

export const cardPaymentShapeSchema = z
  .strictObject({
    externalId: externalIdSchema,
    amount: amountSchema,
    installmentCount: z
      .number()
      .int({ message: 'must be an integer' })
      .min(1, { message: 'must be at least 1' })
      .max(MAX_INSTALLMENTS, { message: `must be at most ${MAX_INSTALLMENTS}` }),
    payer: z.strictObject({
      name: plainTextSchema.min(1).max(100),
      email: emailSchema.max(254, { message: 'must have at most 254 characters' }),
      document: z.string().regex(TAX_DOCUMENT_PATTERN, { message: `must be ${TAX_DOCUMENT_FORMS}` }),
      phone: z.string().min(1).max(40),
    }),
    description: plainTextSchema.max(255).optional(),
    items: z
      .array(
        z.strictObject({
          title: plainTextSchema.min(1).max(100),
          quantity: z.number().int({ message: 'must be an integer' }).min(1).max(10_000),
          amount: amountSchema,
          tangible: z.boolean().optional(),
          externalRef: plainTextSchema.min(1).max(64).optional(),
        }),
      )
      .min(1)
      .max(MAX_ITEMS, { message: `must have at most ${MAX_ITEMS} items` })
      .optional(),
  })
  .meta({ id: 'CardPaymentRequest' });

type Shape = z.output<typeof cardPaymentShapeSchema>;

export interface CardOrderItem {
  title: string;
  quantity: number;
  amountCents: number;
  tangible?: boolean;
  externalRef?: string;
}

/** The order as the engine keeps it (encrypted in the workflow's input: the payer is personal data). */
export interface CardOrder {
  externalId: string;
  amountCents: number;
  installmentCount: number;
  /** document: digits; phone: digits with the country code. */
  payer: { name: string; email: string; document: string; phone: string };
  description?: string;
  items?: CardOrderItem[];
}

function trimmed(text: string, path: (string | number)[], ctx: z.RefinementCtx): string {
  const value = text.trim();
  if (value === '') ctx.addIssue({ code: 'custom', path, message: 'must not be blank' });
  return value;
}

function item(
  { amount, title, externalRef, ...rest }: NonNullable<Shape['items']>[number],
  index: number,
  ctx: z.RefinementCtx,
): CardOrderItem {
  return {
    ...rest,
    title: trimmed(title, ['items', index, 'title'], ctx),
    amountCents: amount,
    ...(externalRef !== undefined ? { externalRef: trimmed(externalRef, ['items', index, 'externalRef'], ctx) } : {}),
  };
}

export const cardPaymentRequestSchema = cardPaymentShapeSchema.transform((request, ctx): CardOrder => {
  const document = validateTaxDocument(request.payer.document);
  if (!document.ok) ctx.addIssue({ code: 'custom', path: ['payer', 'document'], message: document.message });
  const phone = phoneSchema.safeParse(request.payer.phone);
  if (!phone.success)
    ctx.addIssue({
      code: 'custom',
      path: ['payer', 'phone'],
      message: phone.error.issues[0]?.message ?? 'must be a phone number',
    });
  const description = request.description?.trim();
  return {
    externalId: request.externalId,
    amountCents: request.amount,
    installmentCount: request.installmentCount,
    payer: {
      name: trimmed(request.payer.name, ['payer', 'name'], ctx),
      email: request.payer.email,
      document: document.ok ? document.unmasked : '',
      phone: phone.success ? phone.data : '',
    },
    ...(description ? { description } : {}),
    ...(request.items ? { items: request.items.map((entry, index) => item(entry, index, ctx)) } : {}),
  };
});
