import type { Router } from 'express';
import { ApiError, parseBody, parseOrThrow } from '../errors';
import { externalIdParamsSchema, idempotentCreateRoute, lifecycleRouter, readRoute } from '../lifecycle-routes';
import { payoutRequestSchema } from '../../payouts/payout-request';
import { copyPastePreviewRequestSchema } from '../../payouts/rails/pix-copy-paste/preview';
import {
  cancelPayoutBodySchema,
  payoutQuoteQuerySchema,
  copyPastePreviewResponse,
  cryptoQuoteResponse,
  payoutResponse,
} from './schemas';
import { payoutListQuerySchema, payoutSummaryQuerySchema } from './list-schemas';
import type { PayoutListing } from './payout-listing';
import type { PayoutService } from './service';

export function payoutRoutes(service: PayoutService, listing: PayoutListing): Router {
  const router = lifecycleRouter('/v1/payouts');

  idempotentCreateRoute(router, '/v1/payouts', payoutRequestSchema, 'PAYOUT_NOT_PAYABLE', 202, (request) =>
    service.submit(request),
  );

  router.post('/v1/payouts/preview', (req, res) => {
    res.json(copyPastePreviewResponse(service.previewCopyPaste(parseBody(copyPastePreviewRequestSchema, req))));
  });

  router.get('/v1/payouts', async (req, res) => {
    res.json(await listing.list(parseOrThrow(payoutListQuerySchema, req.query, 'query')));
  });

  // Before /:externalId, which would take "summary" and "quote" for ids.
  router.get('/v1/payouts/summary', async (req, res) => {
    res.json(await listing.summary(parseOrThrow(payoutSummaryQuerySchema, req.query, 'query')));
  });

  router.get('/v1/payouts/quote', async (req, res) => {
    const { amount } = parseOrThrow(payoutQuoteQuerySchema, req.query, 'query');
    res.json(cryptoQuoteResponse(await service.quoteCrypto(amount)));
  });

  readRoute(router, '/v1/payouts/:externalId', externalIdParamsSchema, async ({ externalId }) =>
    payoutResponse(await service.read(externalId)),
  );

  readRoute(router, '/v1/payouts/:externalId/events', externalIdParamsSchema, ({ externalId }) =>
    listing.events(externalId),
  );

  router.post('/v1/payouts/:externalId/recheck', async (req, res) => {
    const { externalId } = parseOrThrow(externalIdParamsSchema, req.params, 'params');
    const { later, reading } = await service.recheck(externalId);
    // 202: taken, the workflow looks when its task lets it; the view is the one before that look.
    res.status(later ? 202 : 200).json(payoutResponse(reading));
  });

  router.post('/v1/payouts/:externalId/cancel', async (req, res) => {
    const { externalId } = parseOrThrow(externalIdParamsSchema, req.params, 'params');
    const { reason } = parseOrThrow(cancelPayoutBodySchema, req.body ?? {}, 'body');
    const outcome = await service.cancel(externalId, reason);
    if (!outcome.cancelled) throw new ApiError(409, 'PAYOUT_NOT_CANCELLABLE', outcome.reason);
    res.json(payoutResponse({ source: 'workflow', view: outcome.view }));
  });

  return router;
}
