/** The engine's payment API client for the sandbox a test started, logged in with the test config's credentials. */
import type { Config } from '../../src/config/env';
import { PaymentApiClient } from '../../src/payment-api/client';

export const sandboxApiClient = (config: Config, baseUrl: string, timeoutMs = 2_000): PaymentApiClient =>
  new PaymentApiClient({
    baseUrl,
    clientId: config.PAYMENT_API_CLIENT_ID,
    clientSecret: config.PAYMENT_API_CLIENT_SECRET,
    timeoutMs,
  });
