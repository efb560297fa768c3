import express, { Router } from 'express';
import { z } from 'zod';
import { requireApiKey } from '../auth';
import { ApiError, parseBody, parseOrThrow } from '../errors';
import { externalIdSchema, payoutRequestSchema } from './payout-request';
import { payoutResponse } from './payout-response';
import type { PayoutService } from './payout-service';

export const payoutParamsSchema = z.object({ externalId: externalIdSchema });
export const cancelPayoutBodySchema = z.object({ reason: z.string().trim().min(1).max(200).default('requested by operator') }).strict();

export function payoutRoutes(service: PayoutService, apiKeys: readonly string[]): Router {
  const router = Router();
  router.use('/v1/payouts', requireApiKey(apiKeys), express.json({ limit: '64kb' }));

  router.post('/v1/payouts', async (req, res) => {
    const request = parseBody(payoutRequestSchema, req);
    const submitted = await service.submit(request);
    if (!submitted.created) res.set('Idempotent-Replayed', 'true');
    res.status(202).json({ externalId: submitted.externalId, status: submitted.status, workflowId: submitted.workflowId });
  });

  router.get('/v1/payouts/:externalId', async (req, res) => {
    const { externalId } = parseOrThrow(payoutParamsSchema, req.params, 'params');
    res.json(payoutResponse(await service.get(externalId)));
  });

  router.post('/v1/payouts/:externalId/recheck', async (req, res) => {
    const { externalId } = parseOrThrow(payoutParamsSchema, req.params, 'params');
    res.json(payoutResponse(await service.recheck(externalId)));
  });

  router.post('/v1/payouts/:externalId/cancel', async (req, res) => {
    const { externalId } = parseOrThrow(payoutParamsSchema, req.params, 'params');
    const { reason } = parseOrThrow(cancelPayoutBodySchema, req.body ?? {}, 'body');
    const outcome = await service.cancel(externalId, reason);
    if (!outcome.cancelled) throw new ApiError(409, 'PAYOUT_NOT_CANCELLABLE', outcome.reason);
    res.json(payoutResponse(outcome.view));
  });

  return router;
}
