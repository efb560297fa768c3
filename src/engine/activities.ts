/**
 * The activities as the engine runs them: the HTTP client of the payment API, the batch store, the intent store beside it, the webhook endpoints and the transport that reaches them, a Temporal
 * client (batch activities start payout workflows, announcements start event deliveries) and the logger.
 */
import type { Client } from '@temporalio/client';
import { createActivities } from '../../activities';
import type { BatchStore } from '../batches/batch-store';
import type { Config } from '../config/env';
import type { IntentStore } from '../intents/intent-store';
import type { ReadModel } from '../read-model/read-model';
import { chargeRefunds } from '../lifecycles/charge-client';
import type { PaymentApiClient } from '../payment-api/client';
import type { Logger } from '../logging/logger';
import type { WebhookEndpointStore } from '../merchant-events/endpoint-store';
import { endpointPolicy, endpointTransport } from '../merchant-events/endpoint-transport';
import { deliveryTiming } from '../lifecycles/merchant-event-client';

export function engineActivities(
  config: Config,
  resources: {
    batchStore: BatchStore;
    intents: IntentStore;
    readModel: ReadModel;
    endpoints: WebhookEndpointStore;
    temporal: Client;
    logger: Logger;
    api: PaymentApiClient;
    /** `temporal` shares the worker's NativeConnection: workflows it starts can take their first task eagerly. */
    eagerStart: boolean;
  },
) {
  const { batchStore, intents, readModel, endpoints, temporal, logger, api, eagerStart } = resources;
  return createActivities({
    api,
    callbackBaseUrl: config.ENGINE_PUBLIC_URL,
    chargeMerchantName: config.CHARGE_MERCHANT_NAME,
    charges: chargeRefunds(temporal),
    med: { envelope: config.MED_LIST_ENVELOPE, fields: config.MED_RECORD_FIELDS },
    dueSoonLeadMs: config.INFRACTION_DUE_SOON_LEAD_MS,
    batchStore,
    intents,
    readModel,
    endpoints,
    temporal,
    eagerStart,
    logger,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    webhooks: {
      timing: deliveryTiming(config),
      taskQueue: config.MERCHANT_WEBHOOK_TASK_QUEUE,
      timeoutMs: config.MERCHANT_WEBHOOK_TIMEOUT_MS,
      transport: endpointTransport(endpointPolicy(config)),
    },
  });
}
