/** `/v1/infractions`: list (the read model), read, defend (a workflow update), sync now. */
import { Router } from 'express';
import { defenseRequestSchema } from '../../infractions/defense';
import { ApiError, parseBody, parseOrThrow } from '../errors';
import { jsonBodies } from '../http-refusals';
import type { OperationListing } from '../operation-listing';
import { infractionParamsSchema, infractionListItem, infractionListQuerySchema, infractionResponse } from './schemas';
import type { InfractionService } from './service';

export function infractionRoutes(service: InfractionService, listing: OperationListing): Router {
  const router = Router();
  router.use('/v1/infractions', jsonBodies('64kb'));

  router.get('/v1/infractions', async (req, res) => {
    res.json(
      await listing.list('infraction', parseOrThrow(infractionListQuerySchema, req.query, 'query'), infractionListItem),
    );
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
