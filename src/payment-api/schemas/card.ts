/**
 * Card payments: endpoint 2 (POST /api/v1/card/payments), endpoint 3 (GET /api/v1/card/payments/:id)
 * and the PAYMENT_UPDATED callback. Card data never leaves the client's backend except in this request.
 */
import { z } from 'zod';
import { reaisToCentavos } from '../../money/centavos';
import { documentedAs } from '../../openapi/document';
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
/**
 * Our choice (the spec does not list them), with each currency's minor units (ISO 4217): the 3DS
 * session's amount is in these units, e.g. 10.10 BRL is 1010, 1500 JPY is 1500.
 */
export const CARD_CURRENCY_MINOR_UNITS = { BRL: 2, USD: 2, EUR: 2, JPY: 0 } as const;
export type CardCurrency = keyof typeof CARD_CURRENCY_MINOR_UNITS;
export const CARD_CURRENCIES = Object.keys(CARD_CURRENCY_MINOR_UNITS) as [CardCurrency, ...CardCurrency[]];
/** What creditCard.currency means when it is absent. */
export const DEFAULT_CARD_CURRENCY: CardCurrency = 'BRL';

/**
 * The amount in the currency's minor units, from integer centavos of the request's decimal amount;
 * undefined when the amount has more decimals than the currency allows (e.g. 10.50 JPY).
 */
export function amountInMinorUnits(amountCentavos: number, currency: CardCurrency): number | undefined {
  const divisor = 10 ** (2 - CARD_CURRENCY_MINOR_UNITS[currency]);
  return amountCentavos % divisor === 0 ? amountCentavos / divisor : undefined;
}

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
  /**
   * E.164 or a Brazilian number with area code, masked or not. Its form is a business rule (422
   * INVALID_PHONE, `normalizePhone`), as no JSON Schema states it; the field itself is any short text.
   */
  phone: z.string().min(1).max(40),
});

export const cardItemSchema = z.strictObject({
  title: requiredTextSchema,
  quantity: z.number().int().positive(),
  amount: requestAmountSchema,
  tangible: z.boolean().optional(),
  externalRef: z.string().optional(),
});

export const cardPaymentRequestSchema = z
  .strictObject({
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
  })
  .meta({ id: 'ProviderCardPaymentRequest' });
export type CardPaymentRequest = z.input<typeof cardPaymentRequestSchema>;
/** The request as its schema reads it (what the sandbox acts on). */
export type CardPaymentInput = z.output<typeof cardPaymentRequestSchema>;

/**
 * Why the amount cannot be charged in the card's currency (decimals in a currency without them), or
 * undefined. A rule across two fields that no JSON Schema states: a business refusal (422), not a 400.
 */
export function amountCurrencyProblem(request: z.output<typeof cardPaymentRequestSchema>): string | undefined {
  const currency = request.creditCard.currency ?? DEFAULT_CARD_CURRENCY;
  return amountInMinorUnits(reaisToCentavos(request.amount), currency) === undefined
    ? `must be a whole amount in ${currency}, which has no decimals`
    : undefined;
}

const providerReferencesSchema = z.looseObject({
  transactionId: z.string().optional(),
  customerId: z.string().optional(),
  cardId: z.string().optional(),
});

/** A field the engine reads only when the provider sends it readably: anything else reads as absent, never as a refusal. */
const whenReadable = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** The spec's integer data.id; a numeric string is read as the integer. */
export const cardPaymentIdSchema = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value),
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Endpoint 2's answer. The engine needs data.id, the payment it then follows; the spec shows the other fields, read
 * when they come readably (brand and last four digits, else the checkout's own; status, amount and net value).
 */
export const cardPaymentResponseSchema = z
  .looseObject({
    message: whenReadable(z.string()),
    data: z.looseObject({
      id: cardPaymentIdSchema,
      status: whenReadable(openEnum(CARD_PAYMENT_STATUSES)),
      amount: whenReadable(responseAmountSchema),
      netValue: whenReadable(responseAmountSchema),
      brand: whenReadable(z.string().min(1)),
      last4: whenReadable(z.string().regex(/^\d{4}$/)),
      invoiceUrl: whenReadable(z.string().nullable()),
      receiptUrl: whenReadable(z.string().nullable()),
      provider: whenReadable(z.string()),
      providerReferences: whenReadable(providerReferencesSchema),
    }),
  })
  .meta({ id: 'CardPaymentResponse' });
export type CardPaymentResponse = z.infer<typeof cardPaymentResponseSchema>;

/**
 * Endpoint 3 (shape not in the spec): the payment under `data`, as endpoint 2 answers it, or at the top level.
 * Required only what settles an order: its status and its amount (which must be the order's); a missing one is
 * refused naming it (data.status, data.amount), which the workflow shows as its problem. Whatever else comes is read
 * when readable: the reference and installments, when shown, must be the order's too.
 */
export const cardPaymentDetailsResponseSchema = z
  .preprocess(
    (body) => (isRecord(body) && !isRecord(body.data) ? { data: body } : body),
    z.looseObject({
      message: whenReadable(z.string()),
      data: z.looseObject({
        id: whenReadable(cardPaymentIdSchema),
        status: openEnum(CARD_PAYMENT_STATUSES),
        amount: responseAmountSchema,
        netValue: whenReadable(responseAmountSchema),
        brand: whenReadable(z.string().min(1)),
        last4: whenReadable(z.string().regex(/^\d{4}$/)),
        providerStatus: whenReadable(openEnum(CARD_PROVIDER_STATUSES)),
        externalReference: whenReadable(z.string().nullable()),
        installmentCount: whenReadable(z.number().int()),
        createdAt: whenReadable(timestampSchema),
        updatedAt: whenReadable(timestampSchema),
      }),
    }),
  )
  .meta({ id: 'CardPaymentDetailsResponse' });
export type CardPaymentDetailsResponse = z.output<typeof cardPaymentDetailsResponseSchema>;

/** Path parameter of endpoint 3: the integer data.id. */
export const cardPaymentPathSchema = z.strictObject({
  id: documentedAs(z.string().regex(/^\d+$/, { message: 'must be the integer id of the payment' }), {
    type: 'integer',
    minimum: 0,
  }),
});

/**
 * PAYMENT_UPDATED callback: the spec's table (the sandbox sends all of it), ids as the spec types them.
 * Required only what routes it: the payment's `id` and its `status`; every other field optional.
 */
export const cardCallbackSchema = z.looseObject({
  id: cardPaymentIdSchema,
  status: openEnum(CARD_PAYMENT_STATUSES),
  type: openEnum(['Card']).optional(),
  amount: responseAmountSchema.optional(),
  netValue: responseAmountSchema.optional(),
  brand: z.string().optional(),
  last4: z.string().optional(),
  provider: z.string().optional(),
  providerTransactionId: providerIdSchema.optional(),
  providerCustomerId: z.string().optional(),
  providerStatus: openEnum(CARD_PROVIDER_STATUSES).optional(),
  eventType: openEnum(CARD_EVENT_TYPES).optional(),
  externalReference: z.string().optional(),
  updatedAt: timestampSchema.optional(),
  note: z.string().optional(),
});
export type CardCallback = z.infer<typeof cardCallbackSchema>;
