// Every workflow the worker registers. Workflow code only: deterministic, no I/O.
export { payoutWorkflow } from './payouts/payout-workflow';
export { payoutBatchWorkflow } from './batches/payout-batch-workflow';
export { infractionWorkflow } from './infractions/infraction-workflow';
export { medSyncWorkflow } from './infractions/med-sync-workflow';
export { chargeWorkflow } from './charges/charge-workflow';
export { cardPaymentWorkflow } from './card-payments/card-payment-workflow';
export { merchantEventWorkflow } from './merchant-events/merchant-event-workflow';

// The SDK maps each workflow stack trace through the bundle's source map, which it parses at its first use: without
// this, the first workflow task after a start pays that parse (issue 41, item 6). Read here, it is paid while the
// worker loads the bundle (these modules are preloaded once per worker, src/worker/workflow-source.ts), before it polls.
void new Error('source map warm-up').stack;
