/** The engine's payment API client for the sandbox a test started, logged in with the test config's credentials. */
import type { Config } from '../../src/config/env';
import { PaymentApiClient } from '../../src/payment-api/client';
import { errorIssuesFromZod } from '../../src/payment-api/schemas';
import type { z } from 'zod';

export const sandboxApiClient = (config: Config, baseUrl: string, timeoutMs = 2_000): PaymentApiClient =>
  new PaymentApiClient({
    baseUrl,
    clientId: config.PAYMENT_API_CLIENT_ID,
    clientSecret: config.PAYMENT_API_CLIENT_SECRET,
    timeoutMs,
  });

/** The field paths a refusal names, as the sandbox's 400 body lists them; none when the value parses. */
export function refusedPaths(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : errorIssuesFromZod(result.error).map((issue) => issue.path);
}
