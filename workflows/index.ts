// Every workflow the worker registers, with its Worker Versioning behaviour. Workflow code only: deterministic, no I/O.
import { declareVersioning } from './shared/versioning';
import { payoutWorkflow } from './payouts/payout-workflow';
import { payoutBatchWorkflow } from './batches/payout-batch-workflow';
import { infractionWorkflow } from './infractions/infraction-workflow';
import { medSyncWorkflow } from './infractions/med-sync-workflow';
import { chargeWorkflow } from './charges/charge-workflow';
import { cardPaymentWorkflow } from './card-payments/card-payment-workflow';
import { merchantEventWorkflow } from './merchant-events/merchant-event-workflow';

// A payout ends on the build that started it: it lives minutes to hours, so old builds drain.
declareVersioning('PINNED', payoutWorkflow);
// The rest live long (a batch hours to days, an infraction weeks, a paid charge months, a card payment days for its
// outcome, a delivery days of retries, the MED sync forever by its Schedule): they move to the current build.
declareVersioning('AUTO_UPGRADE', payoutBatchWorkflow);
declareVersioning('AUTO_UPGRADE', infractionWorkflow);
declareVersioning('AUTO_UPGRADE', medSyncWorkflow);
declareVersioning('AUTO_UPGRADE', chargeWorkflow);
declareVersioning('AUTO_UPGRADE', cardPaymentWorkflow);
declareVersioning('AUTO_UPGRADE', merchantEventWorkflow);

export {
  payoutWorkflow,
  payoutBatchWorkflow,
  infractionWorkflow,
  medSyncWorkflow,
  chargeWorkflow,
  cardPaymentWorkflow,
  merchantEventWorkflow,
};

// The SDK maps each workflow stack trace through the bundle's source map, which it parses at its first use: without
// this, the first workflow task after a start pays that parse (issue 41, item 6). Read here, it is paid while the
// worker loads the bundle (these modules are preloaded once per worker, src/worker/workflow-source.ts), before it polls.
void new Error('source map warm-up').stack;
