/** The operators' view of callbacks that named nothing known, in the engine's OpenAPI document. */
import type { OperationSpec } from '../../openapi/document';
import { keyed } from '../openapi-helpers';
import { unmatchedCallbacksResponseSchema } from './unmatched-callbacks';

export const callbackOperations: OperationSpec[] = [
  keyed('operator', {
    id: 'listUnmatchedCallbacks', description: 'Operators: the most recent provider callbacks that named no known payout, charge or card payment, kept so that a late or misrouted callback can be reconciled by hand.', method: 'get', path: '/v1/callbacks/unmatched', summary: 'Callbacks that named no known payout (operators)',
    responses: { 200: { description: 'The most recent unmatched callbacks', schema: unmatchedCallbacksResponseSchema } },
  }),
];
