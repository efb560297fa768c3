/** The MED infraction operations of the engine's OpenAPI document. */
import type { OperationSpec } from '../../openapi/document';
import { defenseRequestSchema } from '../../infractions/defense';
import { aboutOne, errors, listAnswers, JSON_BODY, keyed, TEMPORAL } from '../openapi-helpers';
import {
  infractionListResponseSchema,
  infractionResponseSchema,
  infractionListQuerySchema,
  infractionParamsSchema,
} from './schemas';

export const infractionOperations: OperationSpec[] = [
  keyed('read', {
    id: 'listInfractions',
    description:
      "The MED infractions the sync has seen, from the engine's own database (written when the sync first sees one and at each of its moves, kept after Temporal's retention), newest first by when the engine first saw them: filter by status or by a defense deadline before a date to see what is due. Follow nextCursor until it is absent.",
    method: 'get',
    path: '/v1/infractions',
    summary: "MED infractions from the engine's database: what is due this week, what is open; paged by nextCursor",
    query: infractionListQuerySchema,
    responses: listAnswers({ description: 'A page of infractions', schema: infractionListResponseSchema }),
  }),
  keyed('operator', {
    id: 'syncInfractions',
    description:
      "Operators: runs the MED sync now (the med-sync Schedule runs it every MED_SYNC_INTERVAL_MS): the provider's infractions are read and each new one starts its workflow.",
    method: 'post',
    path: '/v1/infractions/sync',
    summary: 'Run the MED sync now (the Schedule med-sync runs it every MED_SYNC_INTERVAL_MS)',
    responses: { 202: { description: 'A run was triggered' }, ...errors(TEMPORAL) },
  }),
  keyed('read', {
    id: 'getInfraction',
    description:
      "An infraction as the engine follows it: state, amount, the transaction and the charge it is about, the defense deadline, the defense sent and the provider's answer, and every transition.",
    method: 'get',
    path: '/v1/infractions/:infractionId',
    summary: 'An infraction: state, amount, transaction, charge link, deadline, defense, transitions',
    params: infractionParamsSchema,
    responses: aboutOne(
      { description: 'The infraction', schema: infractionResponseSchema },
      'infractionId',
      'Not seen by a sync yet',
      TEMPORAL,
    ),
  }),
  keyed('infractions:write', {
    id: 'defendInfraction',
    description:
      "Sends the merchant's defense (analise ACEITA to accept the refund, NEGADA to contest it, with a justification and proofs) and answers once the provider took it. The same defense sent again answers the same result; a different one answers 409.",
    method: 'post',
    path: '/v1/infractions/:infractionId/defense',
    summary: 'Defend an infraction (analise ACEITA or NEGADA); answered once the provider took it',
    params: infractionParamsSchema,
    body: defenseRequestSchema,
    responses: {
      200: { description: 'DEFENSE_SUBMITTED', schema: infractionResponseSchema },
      ...errors({
        ...JSON_BODY,
        404: 'Unknown infraction',
        409: 'No longer defendable, or a different defense was sent',
        422: 'The provider refused the defense (its reason)',
        ...TEMPORAL,
      }),
    },
  }),
];
