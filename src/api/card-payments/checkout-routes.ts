/**
 * The buyer's side, reached through the checkout link (no API key: the link's token is the credential):
 * the page, its script, and its two calls. The pay body holds the card: the JSON parser's errors and
 * the validation issues name fields only, and nothing here logs a body.
 */
import { Router, type Response } from 'express';
import { z } from 'zod';
import { checkoutFailureSchema, checkoutPaymentSchema } from '../../card-payments/checkout-payment';
import { ApiError, parseBody, parseOrThrow } from '../errors';
import { jsonBodies } from '../http-refusals';
import { externalIdParamsSchema } from '../lifecycle-routes';
import { checkoutHeaders, checkoutMessagePage, checkoutPage } from './checkout-page';
import { CHECKOUT_SCRIPT } from './checkout-script';
import type { CheckoutService } from './checkout-service';
import type { ShieldConfig } from './shield-config';

export const checkoutQuerySchema = z.object({ token: z.string().min(1).max(200) });

const PAGE_REFUSALS: Record<number, string> = {
  401: 'This checkout link is not valid',
  404: 'Unknown checkout',
  410: 'This checkout link has expired',
};

export function checkoutRoutes(service: CheckoutService, shield: ShieldConfig): Router {
  const router = Router();
  const headers = checkoutHeaders(shield.origins);
  const html = (res: Response, status: number, page: string): void => {
    res.status(status).set(headers).type('html').send(page);
  };

  router.get('/checkout/assets/checkout.js', (_req, res) => {
    res
      .set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' })
      .type('application/javascript')
      .send(CHECKOUT_SCRIPT);
  });

  router.get('/checkout/:externalId', async (req, res) => {
    const { externalId } = parseOrThrow(externalIdParamsSchema, req.params, 'params');
    const { token } = parseOrThrow(checkoutQuerySchema, req.query, 'query');
    try {
      service.verify(externalId, token);
      const order = await service.order(externalId);
      html(
        res,
        200,
        checkoutPage(order, {
          publicKey: await shield.publicKey.read(),
          scriptUrl: shield.scriptUrl,
          settingsUrl: shield.settingsUrl,
          stepOrder: shield.stepOrder,
          arguments: shield.arguments,
          token,
          ...(shield.integrity ? { shieldIntegrity: shield.integrity } : {}),
        }),
      );
    } catch (error) {
      // The buyer's browser gets a page, not JSON; outages still leave as the API's 503.
      const refusal = error instanceof ApiError ? PAGE_REFUSALS[error.status] : undefined;
      if (!refusal || !(error instanceof ApiError)) throw error;
      html(res, error.status, checkoutMessagePage(refusal, error.message));
    }
  });

  const body = jsonBodies('16kb');

  router.post('/checkout/:externalId/pay', ...body, async (req, res) => {
    const { externalId } = parseOrThrow(externalIdParamsSchema, req.params, 'params');
    res.set('Cache-Control', 'no-store').json(await service.pay(externalId, parseBody(checkoutPaymentSchema, req)));
  });

  // Small and read-only: the page polls it, within its own bound, until the payment's outcome is known.
  router.get('/checkout/:externalId/status', async (req, res) => {
    const { externalId } = parseOrThrow(externalIdParamsSchema, req.params, 'params');
    const { token } = parseOrThrow(checkoutQuerySchema, req.query, 'query');
    res.set('Cache-Control', 'no-store').json(await service.status(externalId, token));
  });

  router.post('/checkout/:externalId/fail', ...body, async (req, res) => {
    const { externalId } = parseOrThrow(externalIdParamsSchema, req.params, 'params');
    const { token, code } = parseBody(checkoutFailureSchema, req);
    res.set('Cache-Control', 'no-store').json(await service.fail(externalId, token, code));
  });

  return router;
}
