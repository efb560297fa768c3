// Every workflow the worker registers. Workflow code only: deterministic, no I/O.
export { payoutWorkflow } from './payout/payout-workflow';
export { payoutBatchWorkflow } from './batch/payout-batch-workflow';
export { infractionWorkflow } from './infraction/infraction-workflow';
export { medSyncWorkflow } from './infraction/med-sync-workflow';
export { chargeWorkflow } from './charge/charge-workflow';
export { cardPaymentWorkflow } from './card-payment/card-payment-workflow';
export { merchantEventWorkflow } from './merchant-event/merchant-event-workflow';
