/**
 * Endpoint 10: POST /api/transactions/create (PIX cash-in, credential headers) and the status callback
 * sent to projectWebhook (payload not in the spec; our choice, see docs/assumptions.md).
 */
import { z } from 'zod';
import {
  callbackUrlSchema,
  clientIdentifierSchema,
  descriptionSchema,
  documentNumberSchema,
  emailSchema,
  gatewaySchema,
  messageAnswerSchema,
  nonBlankTextSchema,
  openEnum,
  requestAmountSchema,
  responseAmountSchema,
  timestampSchema,
  transactionRecord,
} from './common';

/** PENDING from the spec; PAID, EXPIRED and FAILED are our choice. PENDING is the only non-final one. */
export const CASH_IN_STATUSES = ['PENDING', 'PAID', 'EXPIRED', 'FAILED'] as const;
export type CashInStatus = (typeof CASH_IN_STATUSES)[number];

/** Split percentage: above 0, at most 100, at most 2 decimals. */
const splitTaxSchema = z
  .number()
  .gt(0, { message: 'must be greater than 0' })
  .lte(100, { message: 'must be at most 100' })
  .refine((value) => /^\d+(\.\d{1,2})?$/.test(String(value)), { message: 'must have at most 2 decimal places' })
  .meta({ multipleOf: 0.01 });

export const cashInRequestSchema = z
  .strictObject({
    amount: requestAmountSchema,
    payerName: nonBlankTextSchema(120),
    payerDocument: documentNumberSchema,
    transactionId: clientIdentifierSchema,
    projectWebhook: callbackUrlSchema,
    description: descriptionSchema.optional(),
    payerEmail: emailSchema.optional(),
    splitUser: emailSchema.optional(),
    splitTax: splitTaxSchema.optional(),
    gateway: gatewaySchema.optional(),
  })
  .superRefine((request, ctx) => {
    // A split needs both its recipient and its share; one without the other is a mistake.
    if (request.splitUser !== undefined && request.splitTax === undefined) {
      ctx.addIssue({ code: 'custom', path: ['splitTax'], message: 'is required when splitUser is given' });
    }
    if (request.splitTax !== undefined && request.splitUser === undefined) {
      ctx.addIssue({ code: 'custom', path: ['splitUser'], message: 'is required when splitTax is given' });
    }
  })
  // The same rule for the OpenAPI document, which cannot see into the superRefine.
  .meta({ id: 'PixCashInRequest', dependentRequired: { splitUser: ['splitTax'], splitTax: ['splitUser'] } });
export type CashInRequest = z.input<typeof cashInRequestSchema>;

export const qrCodeResponseSchema = transactionRecord({
  transactionId: z.string().min(1),
  status: openEnum(CASH_IN_STATUSES),
  /** The copy-and-paste (EMV) code. */
  qrcode: z.string().min(1),
  amount: responseAmountSchema,
  /** Sandbox extension: when the charge expires (1 hour after creation). */
  expiresAt: timestampSchema.optional(),
});

export const cashInResponseSchema = messageAnswerSchema('qrCodeResponse', qrCodeResponseSchema, 'PixCashInResponse');
export type CashInResponse = z.infer<typeof cashInResponseSchema>;

/**
 * Sent to projectWebhook on every status change of the charge. Not in the spec: required only what
 * routes it (`transactionId`, the merchant's id of the charge, and `status`); the rest optional.
 */
export const cashInCallbackSchema = transactionRecord({
  transactionId: z.string().min(1),
  status: openEnum(CASH_IN_STATUSES),
  amount: responseAmountSchema.optional(),
  type: openEnum(['Deposit']).optional(),
  /** Present when status is PAID. */
  paidAt: timestampSchema.optional(),
  payerName: z.string().optional(),
  endToEndId: z.string().optional(),
  updatedAt: timestampSchema.optional(),
});
export type CashInCallback = z.infer<typeof cashInCallbackSchema>;
