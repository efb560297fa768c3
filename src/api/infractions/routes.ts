/** `/v1/infractions`: list (visibility), read, defend (a workflow update), sync now. */
import express, { Router } from 'express';
import { defenseRequestSchema } from '../../infractions/defense';
import { centavosToReais } from '../../money/centavos';
import { ApiError, parseBody, parseOrThrow } from '../errors';
import { acceptJsonBodies } from '../http-refusals';
import { infractionParamsSchema, infractionListQuerySchema, infractionResponse } from './schemas';
import type { InfractionService } from './service';

export function infractionRoutes(service: InfractionService): Router {
  const router = Router();
  router.use('/v1/infractions', acceptJsonBodies, express.json({ limit: '64kb' }));

  router.get('/v1/infractions', async (req, res) => {
    const query = parseOrThrow(infractionListQuerySchema, req.query, 'query');
    const page = await service.list({ limit: query.limit, ...(query.status ? { status: query.status } : {}), ...(query.dueBefore ? { dueBefore: query.dueBefore } : {}), ...(query.cursor ? { cursor: query.cursor } : {}) });
    res.json({
      data: page.items.map((item) => ({
        infractionId: item.infractionId,
        status: item.status,
        ...(item.amountCents === undefined ? {} : { amount: centavosToReais(item.amountCents) }),
        ...(item.deadline ? { deadline: item.deadline } : {}),
      })),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    });
  });

  router.post('/v1/infractions/sync', async (_req, res) => {
    await service.sync();
    res.status(202).json({ triggered: true });
  });

  router.get('/v1/infractions/:infractionId', async (req, res) => {
    const { infractionId } = parseOrThrow(infractionParamsSchema, req.params, 'params');
    const { view, unfinished } = await service.readRun(infractionId);
    res.json(infractionResponse(view, unfinished));
  });

  router.post('/v1/infractions/:infractionId/defense', async (req, res) => {
    const { infractionId } = parseOrThrow(infractionParamsSchema, req.params, 'params');
    const defense = parseBody(defenseRequestSchema, req);
    const outcome = await service.defend(infractionId, defense);
    if (!outcome.submitted) throw new ApiError(422, 'DEFENSE_REFUSED', outcome.reason);
    res.json(infractionResponse(outcome.view));
  });

  return router;
}
