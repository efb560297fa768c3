/** `/v1/charges`: create a PIX charge (the QR code answered at once), read one, list them. */
import express, { Router } from 'express';
import { toDataURL } from 'qrcode';
import { z } from 'zod';
import { chargeRequestSchema, chargeShapeSchema } from '../../charges/charge-request';
import { centavosToReais } from '../../money/centavos';
import { externalIdSchema } from '../../payouts/ids';
import { zodIssues } from '../../validation/issues';
import { CHARGE_STATES, chargeWorkflowId, type ChargeView } from '../../lifecycles/charge-client';
import { requireApiKey } from '../auth';
import { ApiError, parseBody, parseOrThrow } from '../errors';
import { acceptJsonBodies } from '../http-refusals';
import { visibilityCursorSchema } from '../visibility-page';
import { chargeResponse, type ChargeCreatedResponse } from './charge-response';
import type { ChargeService } from './charge-service';

export const chargeParamsSchema = z.object({ externalId: externalIdSchema });
export const chargeListQuerySchema = z.strictObject({
  status: z.enum(CHARGE_STATES).optional(),
  cursor: visibilityCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

async function created(view: ChargeView): Promise<ChargeCreatedResponse> {
  if (!view.qrcode || !view.expiresAt) throw new ApiError(422, 'CHARGE_FAILED', view.failureReason ?? 'The charge could not be created');
  return {
    externalId: view.externalId,
    status: view.state,
    qrcode: view.qrcode,
    qrcodeImage: await toDataURL(view.qrcode, { errorCorrectionLevel: 'M', margin: 2 }),
    amount: centavosToReais(view.amountCents),
    expiresAt: view.expiresAt,
    workflowId: chargeWorkflowId(view.externalId),
  };
}

export function chargeRoutes(service: ChargeService, apiKeys: readonly string[]): Router {
  const router = Router();
  router.use('/v1/charges', requireApiKey(apiKeys), acceptJsonBodies, express.json({ limit: '64kb' }));

  router.post('/v1/charges', async (req, res) => {
    parseBody(chargeShapeSchema, req);
    const checked = chargeRequestSchema.safeParse(req.body);
    if (!checked.success) throw new ApiError(422, 'CHARGE_NOT_ACCEPTABLE', 'The charge cannot be made as requested', zodIssues(checked.error));
    res.status(201).json(await created(await service.create(checked.data)));
  });

  router.get('/v1/charges', async (req, res) => {
    const query = parseOrThrow(chargeListQuerySchema, req.query, 'query');
    const page = await service.list({ limit: query.limit, ...(query.status ? { status: query.status } : {}), ...(query.cursor ? { cursor: query.cursor } : {}) });
    res.json({
      data: page.items.map((item) => ({ externalId: item.externalId, status: item.status, amount: centavosToReais(item.amountCents) })),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    });
  });

  router.get('/v1/charges/:externalId', async (req, res) => {
    const { externalId } = parseOrThrow(chargeParamsSchema, req.params, 'params');
    res.json(chargeResponse(await service.read(externalId)));
  });

  return router;
}
