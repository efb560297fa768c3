/** `/v1/events`: what the engine announced, each with its deliveries and their attempts; redelivery on request. */
import { Router } from 'express';
import type { MerchantEventView } from '../../lifecycles/merchant-event-client';
import { parseOrThrow } from '../errors';
import type { EventService } from './service';
import { eventListQuerySchema, eventParamsSchema, type EventResponse } from './schemas';

export function eventResponse({ event, state, deliveries }: MerchantEventView): EventResponse {
  return {
    ...event,
    status: state,
    deliveries: deliveries.map(({ endpointId, state: status, attempts, nextAttemptAt }) => ({
      endpointId,
      status,
      attempts,
      ...(nextAttemptAt ? { nextAttemptAt } : {}),
    })),
  };
}

export function eventRoutes(service: EventService): Router {
  const router = Router();

  router.get('/v1/events', async (req, res) => {
    const query = parseOrThrow(eventListQuerySchema, req.query, 'query');
    res.json(
      await service.list({
        limit: query.limit,
        ...(query.type ? { type: query.type } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      }),
    );
  });

  router.get('/v1/events/:eventId', async (req, res) => {
    const { eventId } = parseOrThrow(eventParamsSchema, req.params, 'params');
    res.json(eventResponse(await service.read(eventId)));
  });

  router.post('/v1/events/:eventId/redeliver', async (req, res) => {
    const { eventId } = parseOrThrow(eventParamsSchema, req.params, 'params');
    res.status(202).json(eventResponse(await service.redeliver(eventId)));
  });

  return router;
}
