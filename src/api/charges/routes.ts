/** `/v1/charges`: create a PIX charge (the QR code answered at once), read one, list them (from the read model). */
import type { Router } from 'express';
import { chargeRequestSchema } from '../../charges/charge-request';
import { qrImage } from '../../charges/qr-image';
import { centavosToReais } from '../../money/centavos';
import { chargeWorkflowId, type ChargeView } from '../../lifecycles/charge-client';
import { ApiError } from '../errors';
import { externalIdParamsSchema, createRoute, lifecycleRouter, listRoute, readRoute } from '../lifecycle-routes';
import type { OperationListing } from '../operation-listing';
import { chargeListItem, chargeListQuerySchema, chargeResponse, type ChargeCreatedResponse } from './schemas';
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
  const router = lifecycleRouter('/v1/charges');

  createRoute(router, '/v1/charges', chargeRequestSchema, 'CHARGE_NOT_ACCEPTABLE', async (request, res) => {
    res.status(201).json(await created(await service.create(request)));
  });

  listRoute(router, '/v1/charges', listing, { kind: 'charge', query: chargeListQuerySchema, item: chargeListItem });

  readRoute(router, '/v1/charges/:externalId', externalIdParamsSchema, async ({ externalId }) =>
    chargeResponse(await service.read(externalId)),
  );

  return router;
}
