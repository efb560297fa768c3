/**
 * Admin controls of the cash-in product, mounted under /sandbox/ behind the admin token check:
 *
 *   POST /sandbox/cash-ins/:transactionId/pay   { payerName? }   the payer pays the charge
 *
 * `:transactionId` is the provider id (ci_…) or the client's transactionId. Answers
 * `{ message, qrCodeResponse, operation }`; 404 unknown, 409 OPERATION_FINAL when not PENDING.
 */
import express, { Router } from 'express';
import { z } from 'zod';
import { requiredTextSchema } from '../../../src/payment-api/schemas/common';
import { operationView } from '../../admin/admin-routes';
import type { SandboxContext } from '../../context';
import { parseOrRefuse } from '../../http/errors';
import { cashInResponseBody, findCashIn, payCashIn } from './charge';

export const cashInPayBodySchema = z.strictObject({
  payerName: requiredTextSchema.pipe(z.string().max(120, { message: 'must have at most 120 characters' })).optional(),
});

const transactionPathSchema = z.object({ transactionId: requiredTextSchema });

export function cashInAdminRoutes(ctx: SandboxContext): Router {
  const router = Router();
  router.post('/cash-ins/:transactionId/pay', express.json({ limit: '16kb' }), (req, res) => {
    const { transactionId } = parseOrRefuse(transactionPathSchema, req.params, 'path');
    const body = parseOrRefuse(cashInPayBodySchema, req.body ?? {}, 'body');
    const paid = ctx.db.transaction(() => payCashIn(ctx, findCashIn(ctx, transactionId), body))();
    res.json({ ...cashInResponseBody(paid, 'Cash-in paid'), operation: operationView(paid) });
  });
  return router;
}
