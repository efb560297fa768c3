/**
 * The run's workflow bundle (and its traced twin beside it), built once by jest's global setup: where it is, for the
 * test files and the worker processes they spawn. Unset outside a jest run.
 */
const VARIABLE = 'TEST_WORKFLOW_BUNDLE_PATH';

export const runBundlePath = (): string | undefined => process.env[VARIABLE];

/** Said by the global setup before any test file runs: jest's workers inherit its environment. */
export function setRunBundlePath(bundlePath: string): void {
  process.env[VARIABLE] = bundlePath;
}
