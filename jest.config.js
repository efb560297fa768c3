/** Tests run against one real Temporal dev server started for the whole run (test/setup/global-setup.ts). */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The suites against the provider double run by themselves: `npm run test:double` (jest.double.config.js); those
  // of the built Temporal server after its build, `npm run test:cluster`; the bench's yardstick end to end (three dev
  // servers, minutes) with `npm run test:bench`, not in `.ci/run`.
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/test/against-double/',
    '<rootDir>/test/cluster/built-server.test.ts',
    '<rootDir>/test/cluster/cluster-bench.test.ts',
    '<rootDir>/test/bench/yardstick.test.ts',
  ],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }] },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup/quiet-sdk.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
};
