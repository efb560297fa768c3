/** A production environment every start-up check accepts: tests change one variable of it to see that one refusal. */
import { randomBytes } from 'node:crypto';

export const STRONG_PRODUCTION_ENV = {
  NODE_ENV: 'production',
  ENGINE_API_KEYS: 'key-one-0123456789abcdefghij, key-two-0123456789abcdefghij',
  PAYMENT_API_CLIENT_ID: 'merchant-42',
  PAYMENT_API_CLIENT_SECRET: 's3cret',
  WEBHOOK_SECRET: 'new-secret-0123456789abcdefghij,old-secret-0123456789abcdefghij',
  PAYLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  PAYLOAD_ENCRYPTION_KEY_ID: 'k-2026-11',
  PAYMENT_API_BASE_URL: 'https://api.psp.example.com',
  ENGINE_PUBLIC_URL: 'https://payouts.merchant.example.com',
  CHECKOUT_TOKEN_SECRET: 'checkout-secret-0123456789abcdef',
  PAYMENT_SHIELD_SCRIPT_INTEGRITY: `sha384-${'A'.repeat(64)}`,
};
