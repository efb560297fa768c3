/** The MED infraction operations of the engine's OpenAPI document. */
import type { OperationSpec } from '../../openapi/document';
import { defenseRequestSchema } from '../../infractions/defense';
import { errors, JSON_BODY, keyed, TEMPORAL } from '../openapi-helpers';
import { infractionListResponseSchema, infractionResponseSchema, infractionListQuerySchema, infractionParamsSchema } from './schemas';

export const infractionOperations: OperationSpec[] = [
  keyed('read', {
    id: 'listInfractions', method: 'get', path: '/v1/infractions', summary: 'MED infractions from visibility: what is due this week, what is open', query: infractionListQuerySchema,
    responses: { 200: { description: 'A page of infractions', schema: infractionListResponseSchema }, ...errors({ 400: 'Bad query', 422: 'A cursor this API did not give', ...TEMPORAL }) },
  }),
  keyed('operator', {
    id: 'syncInfractions', method: 'post', path: '/v1/infractions/sync', summary: 'Run the MED sync now (the Schedule med-sync runs it every MED_SYNC_INTERVAL_MS)',
    responses: { 202: { description: 'A run was triggered' }, ...errors(TEMPORAL) },
  }),
  keyed('read', {
    id: 'getInfraction', method: 'get', path: '/v1/infractions/:infractionId', summary: 'An infraction: state, amount, transaction, charge link, deadline, defense, transitions', params: infractionParamsSchema,
    responses: { 200: { description: 'The infraction', schema: infractionResponseSchema }, ...errors({ 400: 'Invalid infractionId', 404: 'Not seen by a sync yet', ...TEMPORAL }) },
  }),
  keyed('infractions:write', {
    id: 'defendInfraction', method: 'post', path: '/v1/infractions/:infractionId/defense', summary: 'Defend an infraction (analise ACEITA or NEGADA); answered once the provider took it', params: infractionParamsSchema, body: defenseRequestSchema,
    responses: {
      200: { description: 'DEFENSE_SUBMITTED', schema: infractionResponseSchema },
      ...errors({ ...JSON_BODY, 404: 'Unknown infraction', 409: 'No longer defendable, or a different defense was sent', 422: 'The provider refused the defense (its reason)', ...TEMPORAL }),
    },
  }),
];
