import { Router } from 'express';
import type { Client } from '@temporalio/client';
import type { Config } from '../config/env';
import type { Logger } from '../logging/logger';
import type { BatchStore } from '../batches/batch-store';
import type { IntentStore } from '../intents/intent-store';
import { batchRoutes } from '../api/batches/routes';
import { BatchService } from '../api/batches/service';
import { callbackRouter } from '../api/callbacks/callback-router';
import { callbackFieldsOf, callbackRoutes } from '../api/callbacks/callback-routes';
import { chargeRoutes } from '../api/charges/routes';
import { ChargeService } from '../api/charges/service';
import { cardPaymentRouters } from '../api/card-payments/card-payment-routers';
import type { UnmatchedCallbackStore } from '../api/callbacks/unmatched-callbacks';
import { addressList, UnsignedBudget } from '../api/callbacks/unsigned-budget';
import { payoutRoutes } from '../api/payouts/routes';
import { PayoutService } from '../api/payouts/service';
import { infractionRoutes } from '../api/infractions/routes';
import { InfractionService } from '../api/infractions/service';
import type { PaymentApiClient } from '../payment-api/client';
import { callbackVerifierFor } from '../payment-api/callback-verifier';
import { ReplayGuard } from '../payment-api/webhook-signature';
import { CryptoFeeReader } from '../payouts/rails/crypto/fee-reader';
import type { WebhookEndpointStore } from '../merchant-events/endpoint-store';
import { OperationListing } from '../api/operation-listing';
import type { ReadModel } from '../read-model/read-model';
import { PayoutListing } from '../api/payouts/payout-listing';
import { eventRoutes } from '../api/merchant-events/routes';
import { EventService } from '../api/merchant-events/service';
import { webhookEndpointRoutes } from '../api/merchant-events/endpoint-routes';

export interface EngineRouterDependencies {
  config: Config;
  logger: Logger;
  temporal: Client;
  batchStore: BatchStore;
  /** Money intents: what a payout, charge or defense whose workflow was terminated had sent. */
  intents: IntentStore;
  /** What the lists and sums are served from, and what outlives Temporal's retention. */
  readModel: ReadModel;
  endpoints: WebhookEndpointStore;
  /** Callbacks that named nothing known, kept for operators (openUnmatchedCallbackStore). */
  unmatched: UnmatchedCallbackStore;
  /** The provider's API, for what the API asks it directly (a crypto quote's fees, a checkout's card authorization). */
  api: PaymentApiClient;
}

/** The engine's feature routes, in mount order. Callbacks first: they read raw bytes, not JSON. */
export function engineRouters({
  config,
  logger,
  temporal,
  batchStore,
  intents,
  readModel,
  endpoints,
  unmatched,
  api,
}: EngineRouterDependencies): Router[] {
  const operations = Router();
  const listing = new OperationListing(readModel);
  operations.get('/v1/callbacks/unmatched', async (_req, res) => {
    res.json(await unmatched.list());
  });
  return [
    callbackRouter(
      {
        client: temporal,
        verifier: callbackVerifierFor(config),
        policy: config.PROVIDER_CALLBACK_SIGNATURES,
        unsigned: {
          perMinute: config.UNSIGNED_CALLBACKS_PER_MINUTE,
          budget: new UnsignedBudget(
            config.UNSIGNED_CALLBACKS_PER_MINUTE,
            addressList(config.PROVIDER_CALLBACK_ADDRESSES),
            () => Date.now(),
          ),
        },
        unmatched,
        replays: new ReplayGuard(),
        updateDeadlineMs: config.PROVIDER_CALLBACK_UPDATE_DEADLINE_MS,
        logger: logger.child({ component: 'callbacks' }),
      },
      callbackRoutes(callbackFieldsOf(config)),
    ),
    payoutRoutes(
      new PayoutService(temporal, config, batchStore, new CryptoFeeReader(api), intents, readModel),
      new PayoutListing(readModel),
    ),
    batchRoutes(new BatchService(temporal, batchStore, config)),
    infractionRoutes(new InfractionService(temporal, config, intents, readModel), listing),
    chargeRoutes(new ChargeService(temporal, config, intents, readModel), listing),
    ...cardPaymentRouters({ config, logger, temporal, intents, readModel, listing, api }),
    webhookEndpointRoutes(endpoints, config),
    eventRoutes(new EventService(temporal, config, readModel)),
    operations,
  ];
}
