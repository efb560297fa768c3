/** `/v1/webhook-endpoints`: where the engine sends events, and with which secret it signs them. */
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import type { z } from 'zod';
import type { Config } from '../../config/env';
import type { WebhookEndpoint, WebhookEndpointStore } from '../../merchant-events/endpoint-store';
import { endpointPolicy } from '../../merchant-events/endpoint-transport';
import {
  endpointRequestSchema,
  endpointRuleProblems,
  MAX_WEBHOOK_ENDPOINTS,
} from '../../merchant-events/endpoint-request';
import { newStandardWebhookSecret } from '../../merchant-events/standard-webhook-signature';
import { ApiError, parseBody, parseOrThrow } from '../errors';
import { jsonBodies } from '../http-refusals';
import { endpointParamsSchema, endpointResponseSchema } from './schemas';

export type EndpointRouteConfig = Pick<
  Config,
  'NODE_ENV' | 'MERCHANT_WEBHOOK_SECRET_OVERLAP_MS' | 'WEBHOOK_ALLOW_LOOPBACK'
>;

function notFound(endpointId: string): ApiError {
  return new ApiError(404, 'ENDPOINT_NOT_FOUND', `No webhook endpoint ${endpointId}`);
}

/** What the merchant sees of an endpoint, the answer's schema keeping only its fields: never its secret but when it is created or rotated. */
function shown(endpoint: WebhookEndpoint): z.infer<typeof endpointResponseSchema> {
  return endpointResponseSchema.parse(endpoint);
}

export function webhookEndpointRoutes(endpoints: WebhookEndpointStore, config: EndpointRouteConfig): Router {
  const router = Router();
  router.use('/v1/webhook-endpoints', jsonBodies('16kb'));

  router.post('/v1/webhook-endpoints', async (req, res) => {
    const request = parseBody(endpointRequestSchema, req);
    const problems = endpointRuleProblems(request, endpointPolicy(config));
    if (problems.length > 0)
      throw new ApiError(422, 'ENDPOINT_NOT_ACCEPTABLE', 'The endpoint cannot be registered as requested', problems);
    if ((await endpoints.list()).length >= MAX_WEBHOOK_ENDPOINTS) {
      throw new ApiError(
        422,
        'TOO_MANY_ENDPOINTS',
        `At most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints: delete one first`,
      );
    }
    const secret = newStandardWebhookSecret();
    const endpoint = await endpoints.create({
      id: `we_${randomBytes(12).toString('hex')}`,
      url: request.url,
      events: request.events,
      signatureScheme: request.signatureScheme,
      secret,
      createdAt: new Date(),
    });
    res.status(201).json({ ...shown(endpoint), secret });
  });

  router.get('/v1/webhook-endpoints', async (_req, res) => {
    res.json({ data: (await endpoints.list()).map(shown) });
  });

  router.get('/v1/webhook-endpoints/:endpointId', async (req, res) => {
    const { endpointId } = parseOrThrow(endpointParamsSchema, req.params, 'params');
    const endpoint = await endpoints.get(endpointId);
    if (!endpoint) throw notFound(endpointId);
    res.json(shown(endpoint));
  });

  router.delete('/v1/webhook-endpoints/:endpointId', async (req, res) => {
    const { endpointId } = parseOrThrow(endpointParamsSchema, req.params, 'params');
    if (!(await endpoints.delete(endpointId))) throw notFound(endpointId);
    res.status(204).end();
  });

  router.post('/v1/webhook-endpoints/:endpointId/rotate-secret', async (req, res) => {
    const { endpointId } = parseOrThrow(endpointParamsSchema, req.params, 'params');
    const now = new Date();
    const previousValidUntil = new Date(now.getTime() + config.MERCHANT_WEBHOOK_SECRET_OVERLAP_MS);
    const secret = newStandardWebhookSecret();
    const endpoint = await endpoints.rotateSecret(endpointId, { secret, previousValidUntil, now });
    if (!endpoint) throw notFound(endpointId);
    res.json({
      ...shown(endpoint),
      secret,
      ...(config.MERCHANT_WEBHOOK_SECRET_OVERLAP_MS > 0
        ? { previousSecretExpiresAt: previousValidUntil.toISOString() }
        : {}),
    });
  });

  return router;
}
