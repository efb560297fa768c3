/** `/v1/card-payments` (API key): create a card payment with its checkout link, list them (from the read model), read one. */
import { Router } from 'express';
import { cardPaymentRequestSchema } from '../../card-payments/card-payment-request';
import { parseBody, parseOrThrow, parseShapeThenRules } from '../errors';
import { jsonBodies } from '../http-refusals';
import { answerIdempotent } from '../idempotent-answer';
import type { OperationListing } from '../operation-listing';
import {
  cardPaymentParamsSchema,
  recheckCardPaymentBodySchema,
  closeCardPaymentBodySchema,
  cardPaymentListItem,
  cardPaymentListQuerySchema,
  cardPaymentResponse,
} from './schemas';
import type { CardPaymentService } from './service';

export function cardPaymentRoutes(service: CardPaymentService, listing: OperationListing): Router {
  const router = Router();
  router.use('/v1/card-payments', jsonBodies('64kb'));

  router.post('/v1/card-payments', async (req, res) => {
    const order = parseShapeThenRules(
      cardPaymentRequestSchema,
      req,
      'CARD_PAYMENT_INVALID',
      'The card payment cannot be made as requested',
    );
    const { created, ...answer } = await service.create(order);
    answerIdempotent(res, 201, created, answer);
  });

  router.get('/v1/card-payments', async (req, res) => {
    res.json(
      await listing.list(
        'card_payment',
        parseOrThrow(cardPaymentListQuerySchema, req.query, 'query'),
        cardPaymentListItem,
      ),
    );
  });

  router.get('/v1/card-payments/:externalId', async (req, res) => {
    const { externalId } = parseOrThrow(cardPaymentParamsSchema, req.params, 'params');
    res.json(cardPaymentResponse(await service.read(externalId)));
  });

  router.post('/v1/card-payments/:externalId/recheck', async (req, res) => {
    const { externalId } = parseOrThrow(cardPaymentParamsSchema, req.params, 'params');
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
    const { externalId } = parseOrThrow(cardPaymentParamsSchema, req.params, 'params');
    const { reason } = parseBody(closeCardPaymentBodySchema, req);
    res.json(cardPaymentResponse(await service.close(externalId, reason.trim() || 'no reason given')));
  });

  return router;
}
