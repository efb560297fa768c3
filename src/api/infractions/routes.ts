/** `/v1/infractions`: list (the read model), read, defend (a workflow update), sync now. */
import type { Router } from 'express';
import { defenseRequestSchema } from '../../infractions/defense';
import { ApiError, parseBody, parseOrThrow } from '../errors';
import { lifecycleRouter, listRoute, readRoute } from '../lifecycle-routes';
import type { OperationListing } from '../operation-listing';
import { infractionParamsSchema, infractionListItem, infractionListQuerySchema, infractionResponse } from './schemas';
import type { InfractionService } from './service';

export function infractionRoutes(service: InfractionService, listing: OperationListing): Router {
  const router = lifecycleRouter('/v1/infractions');

  listRoute(router, '/v1/infractions', listing, {
    kind: 'infraction',
    query: infractionListQuerySchema,
    item: infractionListItem,
  });

  router.post('/v1/infractions/sync', async (_req, res) => {
    await service.sync();
    res.status(202).json({ triggered: true });
  });

  readRoute(router, '/v1/infractions/:infractionId', infractionParamsSchema, async ({ infractionId }) => {
    const { view, unfinished } = await service.readRun(infractionId);
    return infractionResponse(view, unfinished);
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
