/**
 * Card payments: endpoint 2 (POST /api/v1/card/payments), endpoint 3 (GET /api/v1/card/payments/:id)
 * and the PAYMENT_UPDATED callback. Card data never leaves the client's backend except in this request.
 */
import { z } from 'zod';
import {
  callbackUrlSchema,
  descriptionSchema,
  documentNumberSchema,
  emailSchema,
  openEnum,
  providerIdSchema,
  requestAmountSchema,
  requiredTextSchema,
  responseAmountSchema,
  timestampSchema,
} from './common';

/** Our documented bound: 1 (single payment) to 12 installments. */
export const MAX_INSTALLMENTS = 12;

/** PENDING and COMPLETED from the spec; the others are our choice. */
export const CARD_PAYMENT_STATUSES = ['PENDING', 'COMPLETED', 'FAILED', 'REFUNDED'] as const;
export type CardPaymentStatus = (typeof CARD_PAYMENT_STATUSES)[number];
/** PAID from the spec; the others are our choice. */
export const CARD_PROVIDER_STATUSES = ['PENDING', 'PAID', 'DECLINED', 'REFUNDED'] as const;
export const CARD_EVENT_TYPES = ['PAYMENT_UPDATED'] as const;
export const CARD_CURRENCIES = ['BRL', 'USD', 'EUR'] as const;

const digits = (pattern: RegExp, message: string) => z.string().regex(pattern, { message });

export const threeDSSchema = z.strictObject({
  cavv: requiredTextSchema,
  eci: digits(/^\d{2}$/, 'must be two digits'),
  version: digits(/^\d+(\.\d+){0,2}$/, 'must look like 2.2.0'),
  // 3DS 2 has no xid, and referenceId only exists in some flows.
  xid: z.string().optional(),
  referenceId: z.string().optional(),
});

export const creditCardSchema = z.strictObject({
  holderName: requiredTextSchema,
  number: digits(/^\d{12,19}$/, 'must be 12 to 19 digits'),
  expiryMonth: digits(/^(0[1-9]|1[0-2])$/, 'must be two digits, 01 to 12'),
  expiryYear: digits(/^\d{4}$/, 'must be four digits'),
  ccv: digits(/^\d{3,4}$/, 'must be 3 or 4 digits'),
  holderDocument: documentNumberSchema.optional(),
  currency: z.enum(CARD_CURRENCIES, { message: `must be one of ${CARD_CURRENCIES.join(', ')}` }).optional(),
  sessionId: z.string().min(1).optional(),
  threeDS: threeDSSchema.optional(),
});

export const payerSchema = z.strictObject({
  name: requiredTextSchema,
  email: emailSchema,
  document: documentNumberSchema,
  /** Digits only: area code + number (10 or 11 digits), optionally prefixed by country code 55. */
  phone: digits(/^(55)?\d{10,11}$/, 'must be 10 or 11 digits (area code + number), optionally prefixed by 55'),
});

export const cardItemSchema = z.strictObject({
  title: requiredTextSchema,
  quantity: z.number().int().positive(),
  amount: requestAmountSchema,
  tangible: z.boolean().optional(),
  externalRef: z.string().optional(),
});

export const cardPaymentRequestSchema = z.strictObject({
  amount: requestAmountSchema,
  description: descriptionSchema.optional(),
  externalReference: z.string().max(100).optional(),
  installmentCount: z
    .number()
    .int({ message: 'must be an integer' })
    .min(1, { message: 'must be at least 1' })
    .max(MAX_INSTALLMENTS, { message: `must be at most ${MAX_INSTALLMENTS}` }),
  dueDate: z.iso.date({ message: 'must be a date in the format YYYY-MM-DD' }),
  global: z.boolean().optional(),
  clientCallbackUrl: callbackUrlSchema.optional(),
  /** Absent means true. */
  wallet_credit_enabled: z.boolean().optional(),
  payer: payerSchema,
  creditCard: creditCardSchema,
  creditCardToken: z.string().min(1).optional(),
  items: z.array(cardItemSchema).optional(),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});
export type CardPaymentRequest = z.input<typeof cardPaymentRequestSchema>;

const providerReferencesSchema = z.looseObject({
  transactionId: z.string().optional(),
  customerId: z.string().optional(),
  cardId: z.string().optional(),
});

const cardPaymentDataFields = {
  id: z.number().int(),
  status: openEnum(CARD_PAYMENT_STATUSES),
  amount: responseAmountSchema,
  netValue: responseAmountSchema,
  brand: z.string(),
  last4: z.string(),
  invoiceUrl: z.string().nullable(),
  receiptUrl: z.string().nullable(),
  provider: z.string(),
  providerReferences: providerReferencesSchema,
};

export const cardPaymentResponseSchema = z.looseObject({
  message: z.string(),
  data: z.looseObject(cardPaymentDataFields),
});
export type CardPaymentResponse = z.infer<typeof cardPaymentResponseSchema>;

/** Endpoint 3 (shape not in the spec; our choice): the creation envelope, with the current state. */
export const cardPaymentDetailsResponseSchema = z.looseObject({
  message: z.string(),
  data: z.looseObject({
    ...cardPaymentDataFields,
    providerStatus: openEnum(CARD_PROVIDER_STATUSES).optional(),
    externalReference: z.string().nullable().optional(),
    installmentCount: z.number().int().optional(),
    createdAt: timestampSchema.optional(),
    updatedAt: timestampSchema.optional(),
  }),
});
export type CardPaymentDetailsResponse = z.infer<typeof cardPaymentDetailsResponseSchema>;

/** Path parameter of endpoint 3: the integer data.id. */
export const cardPaymentPathSchema = z.strictObject({
  id: z.string().regex(/^\d+$/, { message: 'must be the integer id of the payment' }),
});

/** PAYMENT_UPDATED callback, exactly the spec's table; ids as the spec types them. */
export const cardCallbackSchema = z.looseObject({
  id: z.preprocess((value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value), z.number().int()),
  type: z.literal('Card'),
  status: openEnum(CARD_PAYMENT_STATUSES),
  amount: responseAmountSchema,
  netValue: responseAmountSchema,
  brand: z.string(),
  last4: z.string(),
  provider: z.string(),
  providerTransactionId: providerIdSchema,
  providerCustomerId: z.string(),
  providerStatus: openEnum(CARD_PROVIDER_STATUSES),
  eventType: openEnum(CARD_EVENT_TYPES),
  externalReference: z.string().optional(),
  updatedAt: timestampSchema,
  note: z.string().optional(),
});
export type CardCallback = z.infer<typeof cardCallbackSchema>;
