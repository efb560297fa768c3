/** The operators' view of callbacks that named nothing known, in the engine's OpenAPI document. */
import type { OperationSpec } from '../../openapi/document';
import { keyed } from '../openapi-helpers';
import { unmatchedCallbacksResponseSchema } from './unmatched-callbacks';

export const callbackOperations: OperationSpec[] = [
  keyed('operator', {
    id: 'listUnmatchedCallbacks', method: 'get', path: '/v1/callbacks/unmatched', summary: 'Callbacks that named no known payout (operators)',
    responses: { 200: { description: 'The most recent unmatched callbacks', schema: unmatchedCallbacksResponseSchema } },
  }),
];
