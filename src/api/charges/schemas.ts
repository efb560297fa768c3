/**
 * What the routes take about a charge (parameters, queries, bodies: at the end), and what the API answers: the workflow's view with amounts back in reais..
 */
import { z } from 'zod';
import { createdSchema, transitionsSchema, VIEW_SOURCES } from '../lifecycle-view';
import type { ChargeDetail } from '../../read-model/operation-details';
import { timestampSchema } from '../openapi-timestamps';
import { centavosToReais } from '../../money/centavos';
import { CHARGE_STATES, chargeWorkflowId, type ChargeView } from '../../lifecycles/charge-client';
import { activityProblemSchema } from '../activity-problem';
import { intentViewSchema, UNFINISHED_STATUSES, type IntentView, type UnfinishedStatus } from '../unfinished-workflow';
import { listPageQueryShape } from '../list-cursor';
import { merchantOperationList } from '../operation-listing';

const stateSchema = z.enum(CHARGE_STATES);

/** `POST /v1/charges`: the charge to show the payer. */
export const chargeCreatedSchema = createdSchema(
  stateSchema,
  {
    qrcode: z.string(),
    /** The code as a PNG QR picture, ready for an `<img src>`. */
    qrcodeImage: z.string(),
    amount: z.number(),
    expiresAt: timestampSchema,
  },
  'ChargeCreated',
);
export type ChargeCreatedResponse = z.infer<typeof chargeCreatedSchema>;

export const chargeResponseSchema = z
  .object({
    externalId: z.string(),
    workflowId: z.string(),
    status: stateSchema,
    amount: z.number(),
    /** The provider's fee and what is left for the merchant, once paid. */
    fee: z.number().optional(),
    netAmount: z.number().optional(),
    payerName: z.string().optional(),
    description: z.string().optional(),
    split: z.object({ email: z.string(), percent: z.number() }).optional(),
    qrcode: z.string().optional(),
    expiresAt: timestampSchema.optional(),
    paidAt: timestampSchema.optional(),
    providerTransactionId: z.string().optional(),
    /** The transactionId the charge was created under at the provider, when it is not its externalId: a creation whose answer was lost made it anew under this one. */
    providerReference: z.string().optional(),
    /** Every reference it was created under, oldest first, when it was created more than once: each is watched for a payment. */
    providerReferences: z.array(z.string()).optional(),
    /** Created more than once: the reference whose payment settled the order. */
    paidReference: z.string().optional(),
    /** Created more than once: payments of another reference after the order was paid, to be refunded to their payers (the `problem` names them). */
    secondPayments: z
      .array(z.object({ reference: z.string(), providerTransactionId: z.string(), at: timestampSchema }))
      .optional(),
    failureReason: z.string().optional(),
    refunds: z.array(z.object({ infractionId: z.string(), amount: z.number(), at: timestampSchema })).optional(),
    refundedAmount: z.number().optional(),
    callbacksReceived: z.number().optional(),
    checksMade: z.number().optional(),
    transitions: transitionsSchema(stateSchema),
    /**
     * While an activity keeps failing (creating the charge at a provider out of reach, say): which one, why, since
     * when; or, once a second reference was paid, what must be refunded (activity `checkCharge`).
     */
    problem: activityProblemSchema.optional(),
    /**
     * `index`: no worker answered; only what the visibility index knows (state and amount). `store`: Temporal no
     * longer has the workflow (retention); the engine's database answers, without the payer's name or the code.
     */
    source: z.enum(VIEW_SOURCES),
    /**
     * Present when the charge's workflow closed without its outcome (an operator terminated it, say): how it
     * closed and what its creation intent says was created. A reset of the workflow settles it.
     */
    workflowStatus: z.enum(UNFINISHED_STATUSES).optional(),
    creation: intentViewSchema.optional(),
  })
  .meta({ id: 'Charge' });
export type ChargeResponse = z.infer<typeof chargeResponseSchema>;

export const { item: chargeListItem, page: chargeListResponseSchema } = merchantOperationList(CHARGE_STATES, 'Charge');

export type ChargeReading = (
  | { source: 'workflow'; view: ChargeView }
  | { source: 'index'; view: Pick<ChargeView, 'externalId' | 'state' | 'amountCents'> }
  | { source: 'store'; view: Pick<ChargeView, 'externalId' | 'state' | 'amountCents'>; detail?: ChargeDetail }
) & {
  unfinished?: { executionStatus: UnfinishedStatus; creation: IntentView };
};

export function chargeResponse(reading: ChargeReading): ChargeResponse {
  const base = {
    externalId: reading.view.externalId,
    workflowId: chargeWorkflowId(reading.view.externalId),
    status: reading.view.state,
    amount: centavosToReais(reading.view.amountCents),
    ...(reading.unfinished
      ? { workflowStatus: reading.unfinished.executionStatus, creation: reading.unfinished.creation }
      : {}),
  };
  if (reading.source === 'index') return { ...base, transitions: [], source: 'index' };
  if (reading.source === 'store')
    return {
      ...base,
      ...(reading.detail ? detailFields(reading.view, reading.detail) : { transitions: [] }),
      source: 'store',
    };
  const view = reading.view;
  return {
    ...base,
    ...detailFields(view, view),
    payerName: view.payerName,
    ...(view.description ? { description: view.description } : {}),
    ...(view.split ? { split: view.split } : {}),
    ...(view.qrcode ? { qrcode: view.qrcode } : {}),
    ...(view.providerReference ? { providerReference: view.providerReference } : {}),
    ...(view.providerReferences ? { providerReferences: view.providerReferences } : {}),
    ...(view.paidReference ? { paidReference: view.paidReference } : {}),
    ...(view.secondPayments ? { secondPayments: view.secondPayments } : {}),
    ...(view.problem ? { problem: view.problem } : {}),
    source: 'workflow',
  };
}

/** What the workflow's view and the stored detail both say. */
function detailFields(
  { amountCents }: Pick<ChargeView, 'amountCents'>,
  detail: Omit<ChargeDetail, 'transitions'> & { transitions: readonly ChargeDetail['transitions'][number][] },
): Omit<ChargeResponse, 'externalId' | 'workflowId' | 'status' | 'amount' | 'source'> {
  const refunded = detail.refunds.reduce((sum, refund) => sum + refund.amountCents, 0);
  return {
    ...(detail.feeCents !== undefined
      ? { fee: centavosToReais(detail.feeCents), netAmount: centavosToReais(amountCents - detail.feeCents) }
      : {}),
    ...(detail.expiresAt ? { expiresAt: detail.expiresAt } : {}),
    ...(detail.paidAt ? { paidAt: detail.paidAt } : {}),
    ...(detail.providerTransactionId ? { providerTransactionId: detail.providerTransactionId } : {}),
    ...(detail.failureReason ? { failureReason: detail.failureReason } : {}),
    refunds: detail.refunds.map((refund) => ({
      infractionId: refund.infractionId,
      amount: centavosToReais(refund.amountCents),
      at: refund.at,
    })),
    refundedAmount: centavosToReais(refunded),
    callbacksReceived: detail.callbacksReceived,
    checksMade: detail.checksMade,
    transitions: [...detail.transitions],
  };
}

// ---- What the routes take: queries and bodies (the path's externalId: lifecycle-routes.ts) ----

export const chargeListQuerySchema = z.strictObject({
  status: z.enum(CHARGE_STATES).optional(),
  ...listPageQueryShape,
});
