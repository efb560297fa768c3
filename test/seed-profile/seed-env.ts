/**
 * Imported first by a file of this folder that needs the seed profile whatever the run's switch: the engine
 * harness then runs against SANDBOX_PROFILE=seed, the sandbox that serves only what the spec shows
 * (docs/provider-integration.md), with the engine configured for it. The end-to-end suites themselves run
 * against it by `npm run test:seed`.
 */
process.env.SANDBOX_PROFILE = 'seed';
