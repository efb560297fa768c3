// Every workflow the worker registers. Workflow code only: deterministic, no I/O.
export { payoutWorkflow } from './payouts/payout-workflow';
export { payoutBatchWorkflow } from './batches/payout-batch-workflow';
export { infractionWorkflow } from './infractions/infraction-workflow';
export { medSyncWorkflow } from './infractions/med-sync-workflow';
export { chargeWorkflow } from './charges/charge-workflow';
export { cardPaymentWorkflow } from './card-payments/card-payment-workflow';
export { merchantEventWorkflow } from './merchant-events/merchant-event-workflow';
