/** How a workflow's type and result become the operation metrics' labels (workflows/shared/engine-interceptors.ts). */
import { finalStateOf, flowOf } from '../../workflows/shared/engine-interceptors';

test('the flow is the workflow type without its suffix', () => {
  expect(flowOf('payoutWorkflow')).toBe('payout');
  expect(flowOf('payoutBatchWorkflow')).toBe('payoutBatch');
  expect(flowOf('medSyncWorkflow')).toBe('medSync');
});

test("the final state is the view's state, CANCELLED for a cancelled batch, DONE otherwise, and never free text", () => {
  expect(finalStateOf({ externalId: 'x', state: 'NEEDS_REVIEW' })).toBe('NEEDS_REVIEW');
  expect(finalStateOf({ batchId: 'b', cancelled: true, runs: 2 })).toBe('CANCELLED');
  expect(finalStateOf({ batchId: 'b', cancelled: false, runs: 1 })).toBe('DONE');
  expect(finalStateOf({ pages: 1, seen: 3 })).toBe('DONE');
  expect(finalStateOf(undefined)).toBe('DONE');
  expect(finalStateOf({ state: 'paid by ana@example.org' })).toBe('DONE');
});
