/** Endpoints 11 and 11a: POST /api/transactions/internal (alias /api/transactions/withdraw/internal). */
import { z } from 'zod';
import {
  descriptionSchema,
  emailSchema,
  messageAnswerSchema,
  requestAmountSchema,
  responseAmountSchema,
  transactionRecord,
} from './common';

export const internalTransferRequestSchema = z
  .strictObject({
    /** Must belong to a user of the same environment (else 422 RECIPIENT_NOT_FOUND). */
    email: emailSchema,
    amount: requestAmountSchema,
    description: descriptionSchema.optional(),
  })
  .meta({ id: 'InternalTransferRequest' });
export type InternalTransferRequest = z.input<typeof internalTransferRequestSchema>;

export const internalTransferDataSchema = transactionRecord({
  transactionId: z.string().min(1),
  amount: responseAmountSchema,
  recipientEmail: z.string(),
  recipientName: z.string(),
  newBalance: responseAmountSchema,
});

export const internalTransferResponseSchema = messageAnswerSchema(
  'data',
  internalTransferDataSchema,
  'InternalTransferResponse',
);
export type InternalTransferResponse = z.infer<typeof internalTransferResponseSchema>;
