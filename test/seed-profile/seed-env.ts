/**
 * Imported first by each file of this folder: the engine harness then runs against SANDBOX_PROFILE=seed,
 * the sandbox that serves only what the spec shows (docs/provider-integration.md), with the engine
 * configured for it. Each file re-runs one lifecycle's end-to-end suite unchanged.
 */
process.env.SANDBOX_PROFILE = 'seed';
