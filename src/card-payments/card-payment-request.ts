/**
 * The merchant's card payment request (POST /v1/card-payments): reais and masked documents at the
 * boundary, integer centavos and digits inside. No card data: the buyer types the card on the checkout
 * page, and it goes from there to the provider only.
 */
import { z } from 'zod';
import { positiveReaisToCentavosSchema } from '../money/centavos';
import { MAX_INSTALLMENTS } from '../payment-api/schemas/card';
import { emailSchema, MAX_OPERATION_REAIS, nonBlankTextSchema } from '../payment-api/schemas/common';
import { externalIdSchema } from '../payouts/ids';
import { taxDocumentSchema } from '../validation/document';
import { phoneSchema } from '../validation/phone';
import { plainTextSchema } from '../validation/plain-text';

const MAX_ITEMS = 50;
const text = (max: number) => plainTextSchema.pipe(nonBlankTextSchema(max));

export const cardPayerSchema = z.strictObject({
  name: text(100),
  email: emailSchema.max(254, { message: 'must have at most 254 characters' }),
  document: taxDocumentSchema,
  phone: phoneSchema,
});

export const cardOrderItemSchema = z.strictObject({
  title: text(100),
  quantity: z.number().int({ message: 'must be an integer' }).min(1).max(10_000),
  amount: positiveReaisToCentavosSchema(MAX_OPERATION_REAIS),
  tangible: z.boolean().optional(),
  externalRef: text(64).optional(),
});

export const cardPaymentRequestSchema = z.strictObject({
  externalId: externalIdSchema,
  amount: positiveReaisToCentavosSchema(MAX_OPERATION_REAIS),
  installmentCount: z
    .number()
    .int({ message: 'must be an integer' })
    .min(1, { message: 'must be at least 1' })
    .max(MAX_INSTALLMENTS, { message: `must be at most ${MAX_INSTALLMENTS}` }),
  payer: cardPayerSchema,
  description: plainTextSchema.pipe(z.string().max(255, { message: 'must have at most 255 characters' })).optional(),
  items: z.array(cardOrderItemSchema).min(1).max(MAX_ITEMS, { message: `must have at most ${MAX_ITEMS} items` }).optional(),
});

type ParsedRequest = z.output<typeof cardPaymentRequestSchema>;
type ParsedItem = z.output<typeof cardOrderItemSchema>;

export type CardOrderItem = Omit<ParsedItem, 'amount'> & { amountCents: number };

/** The order as the engine keeps it (encrypted in the workflow's input: the payer is personal data). */
export interface CardOrder {
  externalId: string;
  amountCents: number;
  installmentCount: number;
  payer: ParsedRequest['payer'];
  description?: string;
  items?: CardOrderItem[];
}

export function cardOrder(request: ParsedRequest): CardOrder {
  const { amount, items, description, ...rest } = request;
  return {
    ...rest,
    amountCents: amount,
    ...(description !== undefined ? { description } : {}),
    ...(items ? { items: items.map(({ amount: itemAmount, ...item }) => ({ ...item, amountCents: itemAmount })) } : {}),
  };
}
