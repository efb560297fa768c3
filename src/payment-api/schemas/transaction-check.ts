/**
 * Endpoint 9: POST /api/transactions/check. The truth the engine confirms every final status with.
 * The spec gives the common states only; unknown values pass and mean "not final, look again".
 */
import { z } from 'zod';
import {
  openEnum,
  providerIdSchema,
  requiredTextSchema,
  responseAmountSchema,
  timestampSchema,
  transactionRecord,
} from './common';

export const TRANSACTION_STATES = ['PENDENTE', 'PROCESSING', 'COMPLETO', 'FALHA'] as const;
export type TransactionState = (typeof TRANSACTION_STATES)[number];

/** DEPOSITO is observed; the other names are ours. */
export const TRANSACTION_TYPES = [
  'DEPOSITO',
  'SAQUE',
  'PAGAMENTO_PIX',
  'TRANSFERENCIA_INTERNA',
  'SAQUE_CRIPTO',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const TRANSACTION_METHODS = ['PIX', 'INTERNAL', 'CRYPTO'] as const;
export type TransactionMethod = (typeof TRANSACTION_METHODS)[number];

export const transactionCheckRequestSchema = z
  .strictObject({
    /** The id used at creation (external_id, cash-in transactionId) or the id the provider returned. */
    transactionId: requiredTextSchema,
  })
  .meta({ id: 'TransactionCheckRequest' });
export type TransactionCheckRequest = z.input<typeof transactionCheckRequestSchema>;

export const checkedTransactionSchema = transactionRecord({
  transactionId: providerIdSchema,
  transactionState: openEnum(TRANSACTION_STATES),
  /** Read only when present: the engine needs the state; the rest is shown in the spec, not promised. */
  value: responseAmountSchema.optional(),
  fee: responseAmountSchema.optional(),
  transactionType: openEnum(TRANSACTION_TYPES).optional(),
  transactionMethod: openEnum(TRANSACTION_METHODS).optional(),
  createdAt: timestampSchema.optional(),
  updatedAt: timestampSchema.optional(),
});
export type CheckedTransaction = z.infer<typeof checkedTransactionSchema>;

export const transactionCheckResponseSchema = z
  .looseObject({
    message: z.string().optional(),
    transaction: checkedTransactionSchema,
  })
  .meta({ id: 'TransactionCheckResponse' });
export type TransactionCheckResponse = z.infer<typeof transactionCheckResponseSchema>;
