/** What the API answers about an infraction: the workflow's view with amounts back in reais. */
import { z } from 'zod';
import { centavosToReais } from '../../money/centavos';
import { INFRACTION_STATES, infractionWorkflowId, type InfractionView } from '../../lifecycles/infraction-client';
import { activityProblemSchema } from '../activity-problem';
import { intentViewSchema, UNFINISHED_STATUSES } from '../unfinished-workflow';
import type { UnfinishedInfraction } from './infraction-service';

const stateSchema = z.enum(INFRACTION_STATES);

export const infractionResponseSchema = z.object({
  infractionId: z.string(),
  workflowId: z.string(),
  status: stateSchema,
  providerStatus: z.string(),
  amount: z.number(),
  reason: z.string(),
  /** The provider's id of the infracted PIX. */
  transactionId: z.string(),
  /** The engine's charge it belongs to; `null`: not a charge of the engine (unlinked); absent: not looked up yet. */
  chargeExternalId: z.string().nullable().optional(),
  deadline: z.string(),
  defense: z.object({ analise: z.string(), justificativa: z.string(), proofs: z.array(z.string()), submittedAt: z.string() }).optional(),
  refundRecordedAt: z.string().optional(),
  createdAt: z.string(),
  resolvedAt: z.string().optional(),
  transitions: z.array(z.object({ from: stateSchema.nullable(), to: stateSchema, at: z.string(), cause: z.string() })),
  /** While an activity keeps failing (sending the defense, say): which one, why, since when. */
  problem: activityProblemSchema.optional(),
  /**
   * Present when the infraction's workflow closed without its outcome (an operator terminated it, say): how it
   * closed and what its defense intent says was sent. A reset of the workflow settles it.
   */
  workflowStatus: z.enum(UNFINISHED_STATUSES).optional(),
  defenseSubmission: intentViewSchema.optional(),
}).meta({ id: 'Infraction' });
export type InfractionResponse = z.infer<typeof infractionResponseSchema>;

export const infractionListItemSchema = z.object({ infractionId: z.string(), status: z.string(), amount: z.number(), deadline: z.string().optional() }).meta({ id: 'InfractionListItem' });
export const infractionListResponseSchema = z.object({ data: z.array(infractionListItemSchema), nextCursor: z.string().optional() });

export function infractionResponse(view: InfractionView, unfinished?: UnfinishedInfraction): InfractionResponse {
  return {
    infractionId: view.infractionId,
    workflowId: infractionWorkflowId(view.infractionId),
    status: view.state,
    providerStatus: view.record.providerStatus,
    amount: centavosToReais(view.record.amountCents),
    reason: view.record.reason,
    transactionId: view.record.transactionId,
    ...(view.chargeExternalId !== undefined ? { chargeExternalId: view.chargeExternalId } : {}),
    deadline: view.record.defenseDeadline,
    ...(view.defense ? { defense: view.defense } : {}),
    ...(view.refundRecordedAt ? { refundRecordedAt: view.refundRecordedAt } : {}),
    createdAt: view.record.createdAt,
    ...(view.record.resolvedAt ? { resolvedAt: view.record.resolvedAt } : {}),
    transitions: [...view.transitions],
    ...(view.problem ? { problem: view.problem } : {}),
    ...(unfinished ? { workflowStatus: unfinished.executionStatus, defenseSubmission: unfinished.defenseSubmission } : {}),
  };
}
