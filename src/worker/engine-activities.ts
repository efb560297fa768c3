/**
 * The activities as the engine runs them: the HTTP client of the payment API configured from the
 * environment, the batch store, and a Temporal client (batch activities start payout workflows).
 */
import type { Client } from '@temporalio/client';
import { createActivities } from '../../activities';
import type { BatchStore } from '../batches/batch-store';
import type { Config } from '../config/env';
import { PaymentApiClient } from '../payment-api/client';

export function engineActivities(config: Config, resources: { batchStore: BatchStore; temporal: Client }) {
  const api = new PaymentApiClient({
    baseUrl: config.PAYMENT_API_BASE_URL,
    clientId: config.PAYMENT_API_CLIENT_ID,
    clientSecret: config.PAYMENT_API_CLIENT_SECRET,
    timeoutMs: config.PAYMENT_API_TIMEOUT_MS,
  });
  return createActivities({
    api,
    withdrawalCallbackUrl: `${config.ENGINE_PUBLIC_URL}/callbacks/withdrawals`,
    ...resources,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
  });
}
