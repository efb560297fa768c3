/** The suites that judge mutants of the money paths (`npm run test:mutation`, stryker.config.mjs): none needs Temporal. */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS config: require is how it reads the base one */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  // Mutants run thousands of times: no dev server per run. testConfig() only needs an address to write down.
  globalSetup: undefined,
  globalTeardown: undefined,
  setupFiles: [...base.setupFiles, '<rootDir>/test/setup/mutation-setup.ts'],
  testMatch: [
    '<rootDir>/test/intents/*.test.ts',
    '<rootDir>/test/unit/webhook-signature.test.ts',
    '<rootDir>/test/unit/public-address.test.ts',
    '<rootDir>/test/merchant-events/endpoint-store.test.ts',
    '<rootDir>/test/merchant-events/endpoint-store-checks.test.ts',
    '<rootDir>/test/merchant-events/endpoint-transport.test.ts',
    '<rootDir>/test/merchant-events/endpoint-delivery.test.ts',
    '<rootDir>/test/merchant-events/endpoint-rules.test.ts',
    '<rootDir>/test/merchant-events/event-payloads.test.ts',
    '<rootDir>/test/merchant-events/merchant-event.test.ts',
    '<rootDir>/test/merchant-events/merchant-webhook-receiver.test.ts',
    '<rootDir>/test/merchant-events/standard-webhook-check.test.ts',
    '<rootDir>/test/payouts/submit-activity.test.ts',
    '<rootDir>/test/payouts/submit-guards.test.ts',
    '<rootDir>/test/payouts/payout-activities.test.ts',
    '<rootDir>/test/payouts/rail-check.test.ts',
    '<rootDir>/test/workflows/card-payment-binding.test.ts',
    '<rootDir>/test/card-payments/payment-binding.test.ts',
  ],
};
