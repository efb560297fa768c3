/**
 * Endpoint 5: POST /api/payments/pix-copy-paste/pay, paying an EMV (BR Code) payload. Shapes are not
 * in the spec: they mirror the withdrawal (fee charged at request time, status PROCESSING, final
 * status by callback) with `qrcode` carrying the EMV text, the same name the cash-in response uses.
 */
import { z } from 'zod';
import {
  acceptSpellings,
  callbackUrlSchema,
  clientIdentifierSchema,
  descriptionSchema,
  nonBlankTextSchema,
  requestAmountSchema,
  TRANSACTION_ID_SPELLINGS,
} from './common';
import { pixOutCallbackSchema, pixOutObjectSchema, WITHDRAWAL_FINAL_STATUSES, WITHDRAWAL_STATUSES } from './withdrawal';

export const PIX_PAYMENT_STATUSES = WITHDRAWAL_STATUSES;
export const PIX_PAYMENT_FINAL_STATUSES = WITHDRAWAL_FINAL_STATUSES;

/** EMV payloads are at most 512 characters in practice (BR Code manual). */
const MAX_EMV_LENGTH = 512;

export const pixCopyPasteRequestSchema = z.strictObject({
  /** The EMV copy-and-paste text. Its CRC and fields are checked as a business rule (422 INVALID_QRCODE). */
  qrcode: nonBlankTextSchema(MAX_EMV_LENGTH),
  external_id: clientIdentifierSchema,
  /** Required when the EMV carries no amount; when both exist they must agree (422 AMOUNT_MISMATCH). */
  amount: requestAmountSchema.optional(),
  clientCallbackUrl: callbackUrlSchema,
  description: descriptionSchema.optional(),
}).meta({ id: 'PixCopyPasteRequest' });
export type PixCopyPasteRequest = z.input<typeof pixCopyPasteRequestSchema>;

export const pixPaymentObjectSchema = pixOutObjectSchema('PixCopyPaste');
export type PixPaymentObject = z.infer<typeof pixPaymentObjectSchema>;

export const pixCopyPasteResponseSchema = acceptSpellings(
  TRANSACTION_ID_SPELLINGS.camel,
  z.looseObject({
    message: z.string(),
    transactionId: z.string().min(1),
    payment: pixPaymentObjectSchema,
  }),
).meta({ id: 'PixCopyPasteResponse' });
export type PixCopyPasteResponse = z.infer<typeof pixCopyPasteResponseSchema>;

export const pixCopyPasteCallbackSchema = pixOutCallbackSchema('PixCopyPaste');
export type PixCopyPasteCallback = z.infer<typeof pixCopyPasteCallbackSchema>;
