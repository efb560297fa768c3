/** `/v1/charges`: create a PIX charge (the QR code answered at once), read one, list them (from the read model). */
import { Router } from 'express';
import { chargeRequestSchema } from '../../charges/charge-request';
import { qrImage } from '../../charges/qr-image';
import { centavosToReais } from '../../money/centavos';
import { chargeWorkflowId, type ChargeView } from '../../lifecycles/charge-client';
import { ApiError, parseOrThrow, parseShapeThenRules } from '../errors';
import { jsonBodies } from '../http-refusals';
import type { OperationListing } from '../operation-listing';
import {
  chargeParamsSchema,
  chargeListItem,
  chargeListQuerySchema,
  chargeResponse,
  type ChargeCreatedResponse,
} from './schemas';
import type { ChargeService } from './service';

async function created(view: ChargeView): Promise<ChargeCreatedResponse> {
  if (!view.qrcode || !view.expiresAt)
    throw new ApiError(422, 'CHARGE_FAILED', view.failureReason ?? 'The charge could not be created');
  return {
    externalId: view.externalId,
    status: view.state,
    qrcode: view.qrcode,
    qrcodeImage: await qrImage(view.qrcode),
    amount: centavosToReais(view.amountCents),
    expiresAt: view.expiresAt,
    workflowId: chargeWorkflowId(view.externalId),
  };
}

export function chargeRoutes(service: ChargeService, listing: OperationListing): Router {
  const router = Router();
  router.use('/v1/charges', jsonBodies('64kb'));

  router.post('/v1/charges', async (req, res) => {
    const request = parseShapeThenRules(
      chargeRequestSchema,
      req,
      'CHARGE_NOT_ACCEPTABLE',
      'The charge cannot be made as requested',
    );
    res.status(201).json(await created(await service.create(request)));
  });

  router.get('/v1/charges', async (req, res) => {
    res.json(await listing.list('charge', parseOrThrow(chargeListQuerySchema, req.query, 'query'), chargeListItem));
  });

  router.get('/v1/charges/:externalId', async (req, res) => {
    const { externalId } = parseOrThrow(chargeParamsSchema, req.params, 'params');
    res.json(chargeResponse(await service.read(externalId)));
  });

  return router;
}
