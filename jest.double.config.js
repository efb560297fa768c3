/** The end-to-end suites against the provider double (test/against-double/): `npm run test:double`. */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS config: require is how it reads the base one */
/** @type {import('jest').Config} */
module.exports = {
  ...require('./jest.config.js'),
  testPathIgnorePatterns: ['/node_modules/'],
  roots: ['<rootDir>/test/against-double'],
};
