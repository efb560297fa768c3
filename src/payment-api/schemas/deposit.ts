/**
 * Endpoint 6: POST /api/payments/deposit, the JWT alternative to endpoint 10. Its shapes are not in the
 * spec; we chose the cash-in request and response unchanged, so a project can switch between the two
 * flows by changing only the credentials.
 */
import type { z } from 'zod';
import { cashInCallbackSchema, cashInRequestSchema, cashInResponseSchema } from './cash-in';

export const depositRequestSchema = cashInRequestSchema;
export type DepositRequest = z.input<typeof depositRequestSchema>;

export const depositResponseSchema = cashInResponseSchema;
export type DepositResponse = z.infer<typeof depositResponseSchema>;

/** Deposits report to projectWebhook exactly like cash-ins (type "Deposit"). */
export const depositCallbackSchema = cashInCallbackSchema;
