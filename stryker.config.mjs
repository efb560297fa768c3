/**
 * Mutation testing of the money paths (`npm run test:mutation`): each file below is mutated and the suites of
 * jest.mutation.config.js judge every mutant; the score per file is printed, with the target (85 %) as `high`.
 * Slow by nature (minutes per file on two cores), so not in `.ci/run`; docs/testing.md lists the survivors and why.
 */
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'jest',
  // Every suite of the config, not jest's related-test search: it missed the rails (reached through the
  // activities' provider table) and printed "No tests were found"; perTest coverage still picks each mutant's tests.
  jest: { configFile: 'jest.mutation.config.js', enableFindRelatedTests: false },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/intents/**/*.ts',
    'src/payouts/rails/rail-provider.ts',
    'activities/payout-activities.ts',
    'src/payment-api/webhook-signature.ts',
    'src/merchant-events/**/*.ts',
    'workflows/card-payments/payment-binding.ts',
    // Not mutated: SQL text only (the migrations, judged by the stores that run them) and declarations only.
    '!src/**/*-schema.ts',
    '!src/merchant-events/announce.ts',
    '!src/merchant-events/delivery-timing.ts',
  ],
  thresholds: { high: 85, low: 70, break: null },
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 20_000,
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['.tools', '.data', 'build', 'dist', 'coverage', 'reports'],
};
