#!/usr/bin/env node
// The `payouts` command: runs the TypeScript CLI through tsx, so there is no build step to forget.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS entry point: require is how it loads the CLI */
require('tsx/cjs');
require('../src/cli/payouts-cli.ts').main();
