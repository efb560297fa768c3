#!/usr/bin/env node
// The `payouts` command: runs the TypeScript CLI through tsx, so there is no build step to forget.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS entry point: require is how it loads the CLI */
require('tsx/cjs');
// First: an older Node than the pinned one is refused in one line (src/cli/pinned-node.ts).
require('../src/cli/pinned-node.ts');
require('../src/cli/payouts-cli.ts').main();
