/** What the API answers about a payout: the status query's content with amounts back in reais. */
import { z } from 'zod';
import { centavosToReais } from '../../money/centavos';
import { PAYOUT_STATES } from '../../../workflows/payout/states';
import { payoutWorkflowId, type PayoutView } from '../../../workflows/payout/messages';

const stateSchema = z.enum(PAYOUT_STATES);

export const payoutAcceptedSchema = z.object({
  externalId: z.string(),
  status: z.string(),
  workflowId: z.string(),
});

export const payoutResponseSchema = z.object({
  externalId: z.string(),
  workflowId: z.string(),
  status: stateSchema,
  amount: z.number(),
  fee: z.number().optional(),
  total: z.number().optional(),
  providerTransactionId: z.string().optional(),
  providerState: z.string().optional(),
  failureReason: z.string().optional(),
  reviewReason: z.string().optional(),
  batchId: z.string().optional(),
  callbacksReceived: z.number().int(),
  checksMade: z.number().int(),
  transitions: z.array(z.object({ from: stateSchema.nullable(), to: stateSchema, at: z.string(), cause: z.string() })),
});
export type PayoutResponse = z.infer<typeof payoutResponseSchema>;

const optionalReais = (centavos: number | undefined): number | undefined => (centavos === undefined ? undefined : centavosToReais(centavos));

export function payoutResponse(view: PayoutView): PayoutResponse {
  return {
    externalId: view.externalId,
    workflowId: payoutWorkflowId(view.externalId),
    status: view.state,
    amount: centavosToReais(view.amountCents),
    fee: optionalReais(view.feeCents),
    total: optionalReais(view.totalCents),
    providerTransactionId: view.providerTransactionId,
    providerState: view.providerState,
    failureReason: view.failureReason,
    reviewReason: view.reviewReason,
    batchId: view.batchId,
    callbacksReceived: view.callbacksReceived,
    checksMade: view.checksMade,
    transitions: [...view.transitions],
  };
}
