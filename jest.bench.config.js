/** `npm run test:bench`: the bench's yardstick end to end with a few payouts (test/bench/yardstick.test.ts). */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS config: require is how it reads the base one */
/** @type {import('jest').Config} */
module.exports = {
  ...require('./jest.config.js'),
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['<rootDir>/test/bench/yardstick.test.ts'],
};
