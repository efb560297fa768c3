/**
 * `npm run test:seed`: the suites that drive each lifecycle to its ends through the provider's answers, again,
 * against the sandbox profile that serves only what the spec shows (SANDBOX_PROFILE=seed,
 * docs/provider-integration.md). What an operator or a crash does to a run (reset, terminate, faults, review,
 * deadlines) is the engine's own logic, proven in `npm test` and against the provider double, not run a third time.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS config: require is how it reads the base one */
/** @type {import('jest').Config} */
module.exports = {
  ...require('./jest.config.js'),
  testMatch: [
    '<rootDir>/test/payouts/payout-lifecycle.test.ts',
    '<rootDir>/test/payouts/payout-rails.test.ts',
    '<rootDir>/test/payouts/payout-booking.test.ts',
    '<rootDir>/test/payouts/payout-provider-settings.test.ts',
    '<rootDir>/test/payouts/submit-activity.test.ts',
    '<rootDir>/test/payouts/submit-guards.test.ts',
    '<rootDir>/test/charges/charge-lifecycle.test.ts',
    '<rootDir>/test/charges/charge-alphanumeric-cnpj.test.ts',
    '<rootDir>/test/card-payments/card-checkout-browser.test.ts',
    '<rootDir>/test/card-payments/card-checkout-provider-settings.test.ts',
    '<rootDir>/test/card-payments/card-three-ds-required.test.ts',
    '<rootDir>/test/card-payments/card-callback-hints.test.ts',
    '<rootDir>/test/infractions/*.test.ts',
  ],
};
