/** The PIX charge operations of the engine's OpenAPI document (the provider's cash-in callbacks: src/api/callbacks/openapi.ts). */
import { chargeShapeSchema } from '../../charges/charge-request';
import { withParamExamples, withRequestExamples, type OperationSpec } from '../../openapi/document';
import { externalIdParamsSchema } from '../lifecycle-routes';
import { aboutOne, errors, listAnswers, JSON_BODY, keyed, linksTo, TEMPORAL } from '../openapi-helpers';
import { chargeCreatedSchema, chargeListResponseSchema, chargeResponseSchema, chargeListQuerySchema } from './schemas';

const exampleCharge = {
  externalId: 'invoice-2001',
  amount: 150,
  payer: { name: 'Ana Souza', document: '52998224725', email: 'ana@example.com' },
  description: 'Invoice 2001',
};
const chargeBody = withRequestExamples(chargeShapeSchema, [exampleCharge]);
const chargeParams = withParamExamples(externalIdParamsSchema, exampleCharge);

export const chargeOperations: OperationSpec[] = [
  keyed('charges:write', {
    id: 'createCharge',
    description:
      'Creates a PIX charge at the provider (cash-in) and answers its copy-and-paste code and QR picture. Idempotent by externalId: the same request answers the same charge. The charge.paid event (or getCharge) tells when the payer paid.',
    method: 'post',
    path: '/v1/charges',
    summary: 'Create a PIX charge: the copy-and-paste code and its QR picture in the answer (idempotent by externalId)',
    body: chargeBody,
    responses: {
      201: {
        description: 'The charge, created now or by an earlier identical request',
        schema: chargeCreatedSchema,
        links: linksTo(['getCharge'], { externalId: '$response.body#/externalId' }),
      },
      ...errors({
        ...JSON_BODY,
        409: 'A different charge has this externalId (CHARGE_CONFLICT), or its workflow was terminated before it ended (CHARGE_UNFINISHED)',
        422: 'A payer document whose check digits do not match, or the provider refused the charge (its reason)',
        ...TEMPORAL,
      }),
    },
  }),
  keyed('read', {
    id: 'listCharges',
    description:
      "The charges of the engine's own database (written when a charge is created and at each of its moves, kept after Temporal's retention), newest first by creation time then externalId. Follow nextCursor until it is absent: pages neither repeat nor skip a charge.",
    method: 'get',
    path: '/v1/charges',
    summary:
      "Charges from the engine's database, newest first, optionally by status and creation time; paged by nextCursor",
    query: chargeListQuerySchema,
    responses: listAnswers({ description: 'A page of charges', schema: chargeListResponseSchema }),
  }),
  keyed('read', {
    id: 'getCharge',
    description:
      "A charge: state, amount, fee and net amount, the payer's name, when it was paid, its refunds, and every transition.",
    method: 'get',
    path: '/v1/charges/:externalId',
    summary: 'A charge: state, amounts, fee, net amount, payer name, paidAt, refunds, transitions',
    params: chargeParams,
    responses: aboutOne(
      { description: 'The charge', schema: chargeResponseSchema },
      'externalId',
      'Unknown charge',
      TEMPORAL,
    ),
  }),
];
