/** What the API answers about an infraction: the workflow's view with amounts back in reais. */
import { z } from 'zod';
import { listPageSchema, transitionsSchema } from '../lifecycle-view';
import { timestampSchema } from '../openapi-timestamps';
import { centavosToReais } from '../../money/centavos';
import { INFRACTION_ID_PATTERN } from '../../infractions/infraction-id';
import type { InfractionRecord } from '../../infractions/infraction-record';
import { INFRACTION_STATES, infractionWorkflowId, type InfractionView } from '../../lifecycles/infraction-client';
import { activityProblemSchema } from '../activity-problem';
import { intentViewSchema, UNFINISHED_STATUSES } from '../unfinished-workflow';
import type { UnfinishedInfraction } from './service';
import type { StoredOperation } from '../../read-model/read-model';
import { listPageQueryShape } from '../list-cursor';

const stateSchema = z.enum(INFRACTION_STATES);

export const infractionResponseSchema = z
  .object({
    infractionId: z.string(),
    workflowId: z.string(),
    status: stateSchema,
    /** The provider's record as the engine read it: absent while NEEDS_REVIEW (the record could not be read; `problem` says why). */
    providerStatus: z.string().optional(),
    amount: z.number().optional(),
    reason: z.string().optional(),
    /** The provider's id of the infracted PIX. */
    transactionId: z.string().optional(),
    /** The engine's charge it belongs to; `null`: not a charge of the engine (unlinked); absent: not looked up yet. */
    chargeExternalId: z.string().nullable().optional(),
    deadline: timestampSchema.optional(),
    /** providerAnswer: what the provider answered to it (endpoint 8's answer, not shown by the spec), bounded and masked. */
    defense: z
      .object({
        analise: z.string(),
        justificativa: z.string(),
        proofs: z.array(z.string()),
        submittedAt: timestampSchema,
        providerAnswer: z.string().optional(),
      })
      .optional(),
    refundRecordedAt: timestampSchema.optional(),
    createdAt: timestampSchema.optional(),
    resolvedAt: timestampSchema.optional(),
    transitions: transitionsSchema(stateSchema),
    /** While NEEDS_REVIEW: the provider record's field names and what could not be read; else while an activity keeps failing (sending the defense, say): which one, why, since when. */
    problem: activityProblemSchema.optional(),
    /**
     * Present when the infraction's workflow closed without its outcome (an operator terminated it, say): how it
     * closed and what its defense intent says was sent. A reset of the workflow settles it.
     */
    workflowStatus: z.enum(UNFINISHED_STATUSES).optional(),
    defenseSubmission: intentViewSchema.optional(),
  })
  .meta({ id: 'Infraction' });
export type InfractionResponse = z.infer<typeof infractionResponseSchema>;

/** `amount` and `deadline` are absent while NEEDS_REVIEW (no record the engine could read). */
export const infractionListItemSchema = z
  .object({
    infractionId: z.string(),
    status: stateSchema,
    amount: z.number().optional(),
    deadline: timestampSchema.optional(),
    createdAt: timestampSchema.describe('When the engine first saw it'),
    updatedAt: timestampSchema.describe('Its last move'),
  })
  .meta({ id: 'InfractionListItem' });
export const infractionListResponseSchema = listPageSchema(infractionListItemSchema, 'InfractionList');

export function infractionListItem(operation: StoredOperation): z.infer<typeof infractionListItemSchema> {
  return {
    infractionId: operation.id,
    status: stateSchema.parse(operation.status),
    ...(operation.amountCents === undefined ? {} : { amount: centavosToReais(operation.amountCents) }),
    ...(operation.deadline ? { deadline: operation.deadline.toISOString() } : {}),
    createdAt: operation.createdAt.toISOString(),
    updatedAt: operation.updatedAt.toISOString(),
  };
}

/** What the engine read of the provider's record, when it could. */
function recordFields(record: InfractionRecord | undefined): Partial<InfractionResponse> {
  if (!record) return {};
  return {
    providerStatus: record.providerStatus,
    amount: centavosToReais(record.amountCents),
    reason: record.reason,
    transactionId: record.transactionId,
    deadline: record.defenseDeadline,
    createdAt: record.createdAt,
    ...(record.resolvedAt ? { resolvedAt: record.resolvedAt } : {}),
  };
}

export function infractionResponse(view: InfractionView, unfinished?: UnfinishedInfraction): InfractionResponse {
  return {
    infractionId: view.infractionId,
    workflowId: infractionWorkflowId(view.infractionId),
    status: view.state,
    ...recordFields(view.record),
    ...(view.chargeExternalId !== undefined ? { chargeExternalId: view.chargeExternalId } : {}),
    ...(view.defense ? { defense: view.defense } : {}),
    ...(view.refundRecordedAt ? { refundRecordedAt: view.refundRecordedAt } : {}),
    transitions: [...view.transitions],
    ...(view.problem ? { problem: view.problem } : {}),
    ...(unfinished
      ? { workflowStatus: unfinished.executionStatus, defenseSubmission: unfinished.defenseSubmission }
      : {}),
  };
}

// ---- What the routes take: parameters, queries and bodies ----

export const infractionParamsSchema = z.object({
  infractionId: z.string().regex(INFRACTION_ID_PATTERN, 'must be an infraction id'),
});

export const infractionListQuerySchema = z.strictObject({
  status: z.enum(INFRACTION_STATES).optional(),
  dueBefore: z.iso
    .datetime({ offset: true })
    .transform((text) => new Date(text))
    .optional()
    .describe('RFC 3339; infractions whose defense deadline is before it'),
  ...listPageQueryShape,
});
