/**
 * The card payment operations of the engine's OpenAPI document: the merchant's API, the buyer's checkout
 * (pages and the script with their media types, token refusals as pages) and the provider's callbacks.
 * Built with the engine document's own helpers (../openapi-helpers.ts), so every operation answers in its shape.
 */
import { cardPaymentShapeSchema } from '../../card-payments/card-payment-request';
import { checkoutFailureSchema, checkoutPaymentSchema } from '../../card-payments/checkout-payment';
import { withParamExamples, withRequestExamples, type OperationSpec } from '../../openapi/document';
import { externalIdParamsSchema } from '../lifecycle-routes';
import { aboutOne, errors, listAnswers, JSON_BODY, keyed, linksTo, TEMPORAL, type Errors } from '../openapi-helpers';
import {
  cardPaymentCreatedSchema,
  cardPaymentListQuerySchema,
  cardPaymentListResponseSchema,
  cardPaymentResponseSchema,
  checkoutResultSchema,
  closeCardPaymentBodySchema,
  recheckCardPaymentBodySchema,
} from './schemas';
import { checkoutQuerySchema } from './checkout-routes';

const exampleCardPayment = {
  externalId: 'order-2001',
  amount: 100.1,
  installmentCount: 3,
  payer: { name: 'Ana Souza', email: 'ana@example.com', document: '529.982.247-25', phone: '(11) 98765-4321' },
  description: 'Order 2001',
};
const cardPaymentBody = withRequestExamples(cardPaymentShapeSchema, [exampleCardPayment]);
const cardPaymentParams = withParamExamples(externalIdParamsSchema, exampleCardPayment);
/** The checkout's refusals as the buyer's browser gets them: a page. */
const checkoutPageErrors = { 401: 'The link is not valid', 404: 'Unknown card payment', 410: 'The link has expired' };

export function cardPaymentOperations(): OperationSpec[] {
  const checkoutCallErrors: Errors = {
    ...JSON_BODY,
    401: 'The token is not valid for this payment',
    404: 'Unknown card payment',
    409: 'The payment no longer takes a card (already submitted, paid, failed or expired)',
    410: 'The link has expired',
    ...TEMPORAL,
  };
  return [
    keyed('charges:write', {
      id: 'createCardPayment',
      description:
        'Creates a card payment and its checkout link (checkoutUrl) for the buyer; no card data ever reaches this API. Idempotent by externalId: the same request answers the same payment and link.',
      method: 'post',
      path: '/v1/card-payments',
      body: cardPaymentBody,
      summary: 'Create a card payment (idempotent by externalId) and its checkout link; no card data',
      responses: {
        201: {
          description:
            'Created AWAITING_CARD, or the existing payment for a repeated identical request (same checkout link)',
          schema: cardPaymentCreatedSchema,
          links: linksTo(['getCardPayment', 'recheckCardPayment', 'closeCardPayment'], {
            externalId: '$response.body#/externalId',
          }),
        },
        ...errors({
          ...JSON_BODY,
          409: 'A different card payment has this externalId',
          422: 'A document whose check digits do not match, a phone in no accepted form, a blank name or title',
          ...TEMPORAL,
        }),
      },
    }),
    keyed('read', {
      id: 'listCardPayments',
      description:
        "The card payments of the engine's own database (written when a payment is created and at each of its moves, kept after Temporal's retention), newest first by creation time then externalId. Follow nextCursor until it is absent: pages neither repeat nor skip a payment.",
      method: 'get',
      path: '/v1/card-payments',
      query: cardPaymentListQuerySchema,
      summary:
        "Card payments from the engine's database, newest first, optionally by status and creation time; paged by nextCursor",
      responses: listAnswers({ description: 'A page of card payments', schema: cardPaymentListResponseSchema }),
    }),
    keyed('read', {
      id: 'getCardPayment',
      description:
        'A card payment: state, card brand and last four digits once paid, installments, the net value, and every transition.',
      method: 'get',
      path: '/v1/card-payments/:externalId',
      summary: 'The card payment: state, brand, last4, installments, net value, transitions',
      params: cardPaymentParams,
      responses: aboutOne(
        { description: 'The card payment', schema: cardPaymentResponseSchema },
        'externalId',
        'Unknown card payment',
        TEMPORAL,
      ),
    }),
    keyed('operator', {
      id: 'recheckCardPayment',
      description:
        "Operators: asks the provider about a PENDING or NEEDS_REVIEW card payment now; providerPaymentId names the provider's payment when the workflow never learned it.",
      method: 'post',
      path: '/v1/card-payments/:externalId/recheck',
      params: cardPaymentParams,
      body: recheckCardPaymentBodySchema,
      bodyOptional: true,
      summary:
        'Ask the provider now (operators); providerPaymentId names the payment when the workflow never learned it',
      responses: {
        200: { description: 'The card payment after the check', schema: cardPaymentResponseSchema },
        ...errors({
          ...JSON_BODY,
          404: 'Unknown card payment',
          409: 'Not PENDING or NEEDS_REVIEW, or another payment id is known',
          ...TEMPORAL,
        }),
      },
    }),
    keyed('operator', {
      id: 'closeCardPayment',
      description:
        'Operators: closes a card payment in review that the provider has no payment for, as FAILED with the reason given.',
      method: 'post',
      path: '/v1/card-payments/:externalId/close',
      params: cardPaymentParams,
      body: closeCardPaymentBodySchema,
      summary: 'Close a card payment in review that the provider does not have (operators): FAILED',
      responses: {
        200: { description: 'FAILED', schema: cardPaymentResponseSchema },
        ...errors({
          ...JSON_BODY,
          404: 'Unknown card payment',
          409: 'Not NEEDS_REVIEW, or the provider has a payment for it',
          ...TEMPORAL,
        }),
      },
    }),
    {
      id: 'getCheckoutPage',
      description:
        "The page the buyer opens from checkoutUrl: the card form (3DS through the provider's security module), or where the payment stands. Refusals (an invalid or expired link, an unknown payment) are pages too.",
      method: 'get',
      path: '/checkout/:externalId',
      summary: "The buyer's checkout page (the checkoutUrl): card form, 3DS by the provider's shield.js",
      params: cardPaymentParams,
      query: checkoutQuerySchema,
      responses: {
        200: { description: 'The page (the form, or where the payment stands)', contentType: 'text/html' },
        ...Object.fromEntries(
          Object.entries(checkoutPageErrors).map(([status, description]) => [
            status,
            { description, contentType: 'text/html' },
          ]),
        ),
        ...errors({
          400: 'Invalid externalId or no token',
          503: "Temporal or the provider's security module unavailable: retry",
        }),
      },
    },
    {
      id: 'getCheckoutScript',
      description:
        "The checkout page's own script, served by the engine (no third-party script but the provider's security module).",
      method: 'get',
      path: '/checkout/assets/checkout.js',
      summary: "The checkout page's script",
      responses: { 200: { description: 'The script', contentType: 'application/javascript' } },
    },
    {
      id: 'payCheckout',
      description:
        'Called by the checkout page: the card, the card token and the 3DS result. The engine authorizes the payment at the provider and answers where it went.',
      method: 'post',
      path: '/checkout/:externalId/pay',
      summary: "The checkout page's payment: card, card token and 3DS result; the engine calls the provider",
      params: cardPaymentParams,
      body: checkoutPaymentSchema,
      responses: {
        200: {
          description: 'Where the payment went: PENDING, FAILED (with the reason) or NEEDS_REVIEW',
          schema: checkoutResultSchema,
        },
        ...errors({
          ...checkoutCallErrors,
          422: "A card number that fails its check digit, an expired card, a blank name; no 3DS result while the provider's settings enable 3DS (THREE_DS_REQUIRED)",
        }),
      },
    },
    {
      id: 'getCheckoutStatus',
      description: 'Called by the checkout page after paying, until the payment is final.',
      method: 'get',
      path: '/checkout/:externalId/status',
      summary:
        'Where the payment stands, for the checkout page that follows it after paying (the token may have expired up to an hour ago)',
      params: cardPaymentParams,
      query: checkoutQuerySchema,
      responses: {
        200: {
          description: 'The state (PENDING, PAID, FAILED with the reason, NEEDS_REVIEW, ...)',
          schema: checkoutResultSchema,
        },
        ...errors({
          400: 'Invalid externalId or no token',
          401: 'The token is not valid for this payment',
          404: 'Unknown card payment',
          410: 'The link expired more than an hour ago',
          ...TEMPORAL,
        }),
      },
    },
    {
      id: 'failCheckout',
      description:
        'Called by the checkout page when 3DS did not authenticate the buyer (denied or abandoned): the payment is FAILED with the reason.',
      method: 'post',
      path: '/checkout/:externalId/fail',
      summary: 'The checkout page reports a 3DS that did not authenticate the buyer (denied, abandoned)',
      params: cardPaymentParams,
      body: checkoutFailureSchema,
      responses: {
        200: { description: 'FAILED, with the reason', schema: checkoutResultSchema },
        ...errors(checkoutCallErrors),
      },
    },
  ];
}
