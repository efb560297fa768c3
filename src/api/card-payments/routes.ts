/** `/v1/card-payments` (API key): create a card payment with its checkout link, list them (from the read model), read one. */
import type { Router } from 'express';
import { cardPaymentRequestSchema } from '../../card-payments/card-payment-request';
import { parseBody, parseOrThrow } from '../errors';
import {
  externalIdParamsSchema,
  idempotentCreateRoute,
  lifecycleRouter,
  listRoute,
  readRoute,
} from '../lifecycle-routes';
import type { OperationListing } from '../operation-listing';
import {
  recheckCardPaymentBodySchema,
  closeCardPaymentBodySchema,
  cardPaymentListItem,
  cardPaymentListQuerySchema,
  cardPaymentResponse,
} from './schemas';
import type { CardPaymentService } from './service';

export function cardPaymentRoutes(service: CardPaymentService, listing: OperationListing): Router {
  const router = lifecycleRouter('/v1/card-payments');

  idempotentCreateRoute(router, '/v1/card-payments', cardPaymentRequestSchema, 'CARD_PAYMENT_INVALID', 201, (order) =>
    service.create(order),
  );

  listRoute(router, '/v1/card-payments', listing, {
    kind: 'card_payment',
    query: cardPaymentListQuerySchema,
    item: cardPaymentListItem,
  });

  readRoute(router, '/v1/card-payments/:externalId', externalIdParamsSchema, async ({ externalId }) =>
    cardPaymentResponse(await service.read(externalId)),
  );

  router.post('/v1/card-payments/:externalId/recheck', async (req, res) => {
    const { externalId } = parseOrThrow(externalIdParamsSchema, req.params, 'params');
    const request = parseOrThrow(recheckCardPaymentBodySchema, req.body ?? {}, 'body');
    res.json(
      cardPaymentResponse(
        await service.recheck(
          externalId,
          request.providerPaymentId === undefined ? {} : { providerPaymentId: request.providerPaymentId },
        ),
      ),
    );
  });

  router.post('/v1/card-payments/:externalId/close', async (req, res) => {
    const { externalId } = parseOrThrow(externalIdParamsSchema, req.params, 'params');
    const { reason } = parseBody(closeCardPaymentBodySchema, req);
    res.json(cardPaymentResponse(await service.close(externalId, reason.trim() || 'no reason given')));
  });

  return router;
}
