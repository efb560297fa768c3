/** `/v1/card-payments` (API key): create a card payment with its checkout link, read it. */
import express, { Router } from 'express';
import { z } from 'zod';
import { cardPaymentRequestSchema, cardPaymentShapeSchema } from '../../card-payments/card-payment-request';
import { externalIdSchema } from '../../payouts/ids';
import { requireApiKey } from '../auth';
import { zodIssues } from '../../validation/issues';
import { plainTextSchema } from '../../validation/plain-text';
import { ApiError, parseBody, parseOrThrow } from '../errors';
import { acceptJsonBodies } from '../http-refusals';
import { cardPaymentResponse } from './card-payment-response';
import type { CardPaymentService } from './card-payment-service';

export const cardPaymentParamsSchema = z.object({ externalId: externalIdSchema });
export const recheckCardPaymentBodySchema = z.strictObject({ providerPaymentId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional() });
export const closeCardPaymentBodySchema = z.strictObject({ reason: plainTextSchema.min(1).max(200) });

export function cardPaymentRoutes(service: CardPaymentService, apiKeys: readonly string[]): Router {
  const router = Router();
  router.use('/v1/card-payments', requireApiKey(apiKeys), acceptJsonBodies, express.json({ limit: '64kb' }));

  router.post('/v1/card-payments', async (req, res) => {
    parseBody(cardPaymentShapeSchema, req);
    const checked = cardPaymentRequestSchema.safeParse(req.body);
    if (!checked.success) throw new ApiError(422, 'CARD_PAYMENT_INVALID', 'The card payment cannot be made as requested', zodIssues(checked.error));
    const order = checked.data;
    const { created, ...answer } = await service.create(order);
    if (!created) res.set('Idempotent-Replayed', 'true');
    res.status(201).json(answer);
  });

  router.get('/v1/card-payments/:externalId', async (req, res) => {
    const { externalId } = parseOrThrow(cardPaymentParamsSchema, req.params, 'params');
    res.json(cardPaymentResponse(await service.read(externalId)));
  });

  router.post('/v1/card-payments/:externalId/recheck', async (req, res) => {
    const { externalId } = parseOrThrow(cardPaymentParamsSchema, req.params, 'params');
    const request = parseOrThrow(recheckCardPaymentBodySchema, req.body ?? {}, 'body');
    res.json(cardPaymentResponse(await service.recheck(externalId, request.providerPaymentId === undefined ? {} : { providerPaymentId: request.providerPaymentId })));
  });

  router.post('/v1/card-payments/:externalId/close', async (req, res) => {
    const { externalId } = parseOrThrow(cardPaymentParamsSchema, req.params, 'params');
    const { reason } = parseBody(closeCardPaymentBodySchema, req);
    res.json(cardPaymentResponse(await service.close(externalId, reason.trim() || 'no reason given')));
  });

  return router;
}
