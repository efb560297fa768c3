/** The card payment routes as the engine mounts them: the merchant's API and the buyer's checkout, sharing the checkout token's key. */
import type { Router } from 'express';
import type { Client } from '@temporalio/client';
import { checkoutTokenKey } from '../../card-payments/checkout-token';
import type { Config } from '../../config/env';
import type { IntentStore } from '../../intents/intent-store';
import type { Logger } from '../../logging/logger';
import type { ReadModel } from '../../read-model/read-model';
import type { OperationListing } from '../operation-listing';
import type { PaymentApiClient } from '../../payment-api/client';
import { cardPaymentRoutes } from './routes';
import { CardPaymentService } from './service';
import { checkoutRoutes } from './checkout-routes';
import { CheckoutService } from './checkout-service';
import { shieldConfig } from './shield-config';
import { threeDSRequirement } from './three-ds-requirement';

export function cardPaymentRouters({
  config,
  logger,
  temporal,
  intents,
  readModel,
  listing,
  api,
}: {
  config: Config;
  logger: Logger;
  temporal: Client;
  intents: IntentStore;
  readModel: Pick<ReadModel, 'recordOperation' | 'findOperation'>;
  listing: OperationListing;
  api: PaymentApiClient;
}): Router[] {
  const tokenKey = checkoutTokenKey(config);
  const shield = shieldConfig(config);
  const checkout = new CheckoutService(
    temporal,
    config,
    tokenKey,
    api,
    intents,
    logger.child({ component: 'checkout' }),
    threeDSRequirement(config, shield),
  );
  return [
    cardPaymentRoutes(new CardPaymentService(temporal, config, tokenKey, readModel), listing),
    checkoutRoutes(checkout, shield),
  ];
}
