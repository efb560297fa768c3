/**
 * What the routes take about a card payment (parameters, queries, bodies: at the end), and what the API answers: the workflow's view with amounts back in reais. No card data but brand and last four.
 */
import { z } from 'zod';
import { createdSchema, progressShape, VIEW_SOURCES, type ViewSource } from '../lifecycle-view';
import { timestampSchema } from '../openapi-timestamps';
import { centavosToReais } from '../../money/centavos';
import { CARD_PAYMENT_STATES, cardPaymentWorkflowId, type CardPaymentView } from '../../lifecycles/card-payment-client';
import { activityProblemSchema } from '../activity-problem';
import { plainTextSchema } from '../../validation/plain-text';
import { merchantOperationList } from '../operation-listing';
import { listPageQueryShape } from '../list-cursor';

const stateSchema = z.enum(CARD_PAYMENT_STATES);

export const cardPaymentCreatedSchema = createdSchema(
  stateSchema,
  { checkoutUrl: z.string(), expiresAt: timestampSchema },
  'CardPaymentCreated',
);
export type CardPaymentCreated = z.infer<typeof cardPaymentCreatedSchema>;

export const { item: cardPaymentListItem, page: cardPaymentListResponseSchema } = merchantOperationList(
  CARD_PAYMENT_STATES,
  'CardPayment',
);

export const cardPaymentResponseSchema = z
  .object({
    externalId: z.string(),
    workflowId: z.string(),
    status: stateSchema,
    amount: z.number(),
    installmentCount: z.number().int(),
    expiresAt: timestampSchema,
    brand: z.string().optional(),
    last4: z.string().optional(),
    providerPaymentId: z.number().int().optional(),
    providerStatus: z.string().optional(),
    netValue: z.number().optional(),
    /** The ECI of the 3DS authentication the provider accepted the payment with (02/05 fully authenticated, 01/06 attempted, ...); absent without 3DS. */
    eci: z.string().optional(),
    failureReason: z.string().optional(),
    reviewReason: z.string().optional(),
    ...progressShape(stateSchema),
    /** While an activity keeps failing (the provider's check out of reach, say): which one, why, since when. */
    problem: activityProblemSchema.optional(),
    /**
     * `index`: no worker answered in time, so only the state and amount from the visibility index are shown. `store`:
     * Temporal no longer has the workflow (retention); the engine's database answers, without brand and last4.
     */
    source: z.enum(VIEW_SOURCES),
  })
  .meta({ id: 'CardPayment' });
export type CardPaymentResponse = z.infer<typeof cardPaymentResponseSchema>;

/** What the checkout page's calls answer: the state the payment went to, and why when it failed. */
export const checkoutResultSchema = z
  .object({
    status: stateSchema,
    brand: z.string().optional(),
    last4: z.string().optional(),
    reason: z.string().optional(),
  })
  .meta({ id: 'CheckoutResult' });
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;

export type CardPaymentReading = { source: ViewSource; view: CardPaymentView };

export function cardPaymentResponse({ view, source }: CardPaymentReading): CardPaymentResponse {
  return {
    externalId: view.externalId,
    workflowId: cardPaymentWorkflowId(view.externalId),
    status: view.state,
    amount: centavosToReais(view.amountCents),
    installmentCount: view.installmentCount,
    expiresAt: view.expiresAt,
    brand: view.brand,
    last4: view.last4,
    providerPaymentId: view.providerPaymentId,
    providerStatus: view.providerStatus,
    netValue: view.netValueCents === undefined ? undefined : centavosToReais(view.netValueCents),
    eci: view.eci,
    failureReason: view.failureReason,
    reviewReason: view.reviewReason,
    callbacksReceived: view.callbacksReceived,
    checksMade: view.checksMade,
    transitions: [...view.transitions],
    problem: view.problem,
    source,
  };
}

// ---- What the routes take: queries and bodies (the path's externalId: lifecycle-routes.ts) ----

export const cardPaymentListQuerySchema = z.strictObject({
  status: stateSchema.optional(),
  ...listPageQueryShape,
});

export const recheckCardPaymentBodySchema = z.strictObject({
  providerPaymentId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
});

export const closeCardPaymentBodySchema = z.strictObject({ reason: plainTextSchema.min(1).max(200) });
