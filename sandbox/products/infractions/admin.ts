/**
 * Admin controls of MED infractions, mounted under /sandbox/ behind the admin token check:
 *
 *   POST /sandbox/infractions                  { transactionId, reason, amount? }   open one on a PAID cash-in
 *   POST /sandbox/infractions/:id/resolve      { status: ACCEPTED|REJECTED|CANCELLED }
 *   GET  /sandbox/infractions/:id
 *
 * Each answers `{ infraction }` (the contract's record plus `userId` and `resolvedBy`). `transactionId`
 * is the cash-in's provider id (ci_…) or the client's transactionId; `amount` (reais) defaults to the
 * cash-in's and may not exceed it. 404 unknown; 409 TRANSACTION_NOT_ELIGIBLE (not a PAID cash-in),
 * INFRACTION_EXISTS (the transaction has one WAITING_PSP or ACCEPTED), INFRACTION_FINAL (resolve of a
 * resolved one).
 */
import express, { Router } from 'express';
import { z } from 'zod';
import { reaisToCentavos } from '../../../src/money/centavos';
import { requestAmountSchema, requiredTextSchema } from '../../../src/payment-api/schemas/common';
import type { SandboxContext } from '../../context';
import { parseOrRefuse, providerError, SandboxError } from '../../http/errors';
import type { Operation } from '../../store/operations';
import { CASH_IN_PRODUCT, findCashIn } from '../cash-in/charge';
import { openInfraction, resolveInfraction } from './resolve';
import { infractionStore, infractionView, type InfractionRecord } from './store';

export const openInfractionBodySchema = z.strictObject({
  transactionId: requiredTextSchema,
  reason: requiredTextSchema.pipe(z.string().max(255, { message: 'must have at most 255 characters' })),
  amount: requestAmountSchema.optional(),
});

export const resolveInfractionBodySchema = z.strictObject({
  status: z.enum(['ACCEPTED', 'REJECTED', 'CANCELLED'], { message: 'must be one of ACCEPTED, REJECTED, CANCELLED' }),
});

const infractionPathSchema = z.object({ infractionId: requiredTextSchema });

function eligibleCashIn(ctx: SandboxContext, reference: string): Operation {
  const direct = ctx.operations.byId(reference);
  if (direct && direct.product !== CASH_IN_PRODUCT) {
    throw new SandboxError(
      409,
      'TRANSACTION_NOT_ELIGIBLE',
      `${reference} is a ${direct.product}: infractions are opened on PIX cash-ins the merchant received`,
    );
  }
  const cashIn = direct ?? findCashIn(ctx, reference);
  if (cashIn.status !== 'PAID')
    throw new SandboxError(
      409,
      'TRANSACTION_NOT_ELIGIBLE',
      `Cash-in ${reference} is ${cashIn.status}: only a PAID cash-in can be claimed`,
    );
  return cashIn;
}

function requireInfraction(ctx: SandboxContext, id: string): InfractionRecord {
  const record = infractionStore(ctx).byId(id);
  if (!record) throw providerError('NOT_FOUND', `No infraction ${id}`);
  return record;
}

const adminView = (record: InfractionRecord) => ({
  ...infractionView(record),
  userId: record.userId,
  resolvedBy: record.resolvedBy,
});

export function infractionAdminRoutes(ctx: SandboxContext): Router {
  const router = Router();
  const json = express.json({ limit: '16kb' });

  router.post('/infractions', json, (req, res) => {
    const body = parseOrRefuse(openInfractionBodySchema, req.body ?? {}, 'body');
    const record = ctx.db.transaction(() => {
      const cashIn = eligibleCashIn(ctx, body.transactionId);
      const amountCents = body.amount === undefined ? cashIn.amountCents : reaisToCentavos(body.amount);
      if (amountCents > cashIn.amountCents) {
        throw providerError('VALIDATION_FAILED', 'The request body is invalid', [
          { path: 'amount', message: 'must not exceed the amount of the transaction' },
        ]);
      }
      return openInfraction(ctx, cashIn, body.reason, amountCents);
    })();
    res.json({ infraction: adminView(record) });
  });

  router.post('/infractions/:infractionId/resolve', json, (req, res) => {
    const { infractionId } = parseOrRefuse(infractionPathSchema, req.params, 'path');
    const { status } = parseOrRefuse(resolveInfractionBodySchema, req.body ?? {}, 'body');
    const resolved = ctx.db.transaction(() => {
      const record = requireInfraction(ctx, infractionId);
      const result = record.status === 'WAITING_PSP' ? resolveInfraction(ctx, record, status, 'admin') : undefined;
      if (!result)
        throw new SandboxError(409, 'INFRACTION_FINAL', `Infraction ${infractionId} is already ${record.status}`);
      return result;
    })();
    res.json({ infraction: adminView(resolved) });
  });

  router.get('/infractions/:infractionId', (req, res) => {
    const { infractionId } = parseOrRefuse(infractionPathSchema, req.params, 'path');
    res.json({ infraction: adminView(requireInfraction(ctx, infractionId)) });
  });

  return router;
}
