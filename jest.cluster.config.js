/**
 * The suites that need the built Temporal server (`npm run cluster:install`): `npm run test:cluster`, run by .ci/run
 * after the build. They start no dev server.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS config: require is how it reads the base one */
const base = require('./jest.config.js');
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: base.testEnvironment,
  transform: base.transform,
  setupFiles: base.setupFiles,
  testTimeout: base.testTimeout,
  roots: ['<rootDir>/test/cluster'],
  testMatch: ['**/built-server.test.ts', '**/cluster-bench.test.ts'],
};
