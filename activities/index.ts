import { batchOutcomeRecorder } from '../src/batches/payout-outcomes';
import { createBatchActivities, type BatchActivityDependencies } from './batch-activities';
import { createChargeActivities, type ChargePaymentApi } from './charge-activities';
import { createCardPaymentActivities, type CardPaymentActivityDependencies } from './card-payment-activities';
import { createInfractionActivities, type InfractionActivityDependencies } from './infraction-activities';
import { createMerchantEventActivities } from './merchant-event-activities';
import { createOperationActivities } from './operation-activities';
import { createPayoutActivities, type PayoutActivityDependencies } from './payout-activities';
import { eventAnnouncer } from '../src/lifecycles/merchant-event-client';
import { recordedAnnounce } from '../src/read-model/recorded-announce';
import type { Logger } from '../src/logging/logger';
import type { ReadModel } from '../src/read-model/read-model';
import type { EndpointTransport } from '../src/merchant-events/endpoint-transport';
import type { WebhookEndpointStore } from '../src/merchant-events/endpoint-store';
import type { DeliveryTiming } from '../src/merchant-events/delivery-timing';

export type ActivityDependencies = Omit<PayoutActivityDependencies, 'outcomes' | 'api' | 'announce' | 'readModel'> &
  Omit<BatchActivityDependencies, 'announce'> & {
    endpoints: WebhookEndpointStore;
    webhooks: { timing: DeliveryTiming; timeoutMs: number; transport: EndpointTransport; taskQueue: string };
    logger: Logger;
    readModel: ReadModel;
    chargeMerchantName?: string | undefined;
  } & Omit<InfractionActivityDependencies, 'api'> & {
    api: PayoutActivityDependencies['api'] &
      InfractionActivityDependencies['api'] &
      ChargePaymentApi &
      CardPaymentActivityDependencies['api'];
  };

/** Every activity the worker registers, built from its dependencies; payouts report to the batch store; final states are announced to the merchant's endpoints. */
export function createActivities(deps: ActivityDependencies) {
  const announce = recordedAnnounce(
    deps.readModel,
    eventAnnouncer({
      endpoints: deps.endpoints,
      temporal: deps.temporal,
      queues: { workflow: deps.taskQueue, deliveries: deps.webhooks.taskQueue },
      timing: deps.webhooks.timing,
    }),
  );
  return {
    ...createPayoutActivities({ ...deps, outcomes: batchOutcomeRecorder(deps.batchStore), announce }),
    ...createBatchActivities({ ...deps, announce }),
    ...createInfractionActivities(deps),
    ...createChargeActivities(deps),
    ...createCardPaymentActivities(deps),
    ...createOperationActivities(deps),
    ...createMerchantEventActivities({
      endpoints: deps.endpoints,
      announce,
      webhookTimeoutMs: deps.webhooks.timeoutMs,
      transport: deps.webhooks.transport,
      logger: deps.logger,
      readModel: deps.readModel,
    }),
  };
}
