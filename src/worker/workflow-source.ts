/**
 * Where the worker's workflow code comes from. Production images build the bundle ahead of time
 * (`npm run build:workflows`) and point WORKFLOW_BUNDLE_PATH at it; development bundles at start-up,
 * so an edited workflow is never served from a stale bundle.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../temporal/connection';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

export const WORKFLOWS_PATH = path.join(PROJECT_ROOT, 'workflows', 'index.ts');
/** Bundled with every workflow code: request id propagation and operation metrics. */
export const WORKFLOW_INTERCEPTOR_MODULES = [path.join(PROJECT_ROOT, 'workflows', 'shared', 'engine-interceptors.ts')];

/**
 * Evaluated once per worker, not once per workflow: with the SDK's reusable V8 context every module a
 * workflow imports is otherwise evaluated again for each new workflow (and kept with it while cached). Safe
 * because no module of workflows/ keeps state at module scope (lint refuses a `let` or `var` there): everything a
 * workflow keeps lives in its own objects, and the SDK's functions find the running workflow when called.
 */
export const WORKFLOW_PRELOAD_MODULES = [WORKFLOWS_PATH, ...WORKFLOW_INTERCEPTOR_MODULES];

/** Bundled too when tracing is on: the workflow's spans, and the span context its activities get (trace context alone). Only a path: nothing is loaded here. */
export const TRACING_WORKFLOW_INTERCEPTOR_MODULES = [
  path.join(PROJECT_ROOT, 'src', 'telemetry', 'workflow-interceptors.ts'),
];

/** The traced twin of a prebuilt bundle, written beside it by writeWorkflowBundle: `x.js` → `x.traced.js`. */
export function tracedBundlePath(bundlePath: string): string {
  return bundlePath.replace(/(\.js)?$/, '.traced.js');
}

/** A prebuilt bundle (its traced twin with tracing on), or the workflows to bundle at start (the worker adds the tracing interceptors). */
export function workflowSource(
  bundlePath: string | undefined,
  traced = false,
): { workflowBundle: { codePath: string } } | { workflowsPath: string } {
  if (!bundlePath) return { workflowsPath: WORKFLOWS_PATH };
  return { workflowBundle: { codePath: path.resolve(traced ? tracedBundlePath(bundlePath) : bundlePath) } };
}

/** How the workflow code is bundled, wherever it is: its interceptors and the engine's failure converter (a prebuilt bundle must carry it). */
export const WORKFLOW_BUNDLE_OPTIONS = {
  workflowsPath: WORKFLOWS_PATH,
  workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
  failureConverterPath: FAILURE_CONVERTER_PATH,
  preloadModules: WORKFLOW_PRELOAD_MODULES,
};
/** The same with the tracing interceptors: what a worker with tracing on runs. */
export const TRACED_WORKFLOW_BUNDLE_OPTIONS = {
  ...WORKFLOW_BUNDLE_OPTIONS,
  workflowInterceptorModules: [...WORKFLOW_INTERCEPTOR_MODULES, ...TRACING_WORKFLOW_INTERCEPTOR_MODULES],
};

/** Two bundles: `outFile`, and beside it the one a worker with tracing on runs (tracedBundlePath), so that tracing off costs nothing in workflows. */
export async function writeWorkflowBundle(outFile: string): Promise<void> {
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, (await bundleWorkflowCode(WORKFLOW_BUNDLE_OPTIONS)).code);
  writeFileSync(tracedBundlePath(outFile), (await bundleWorkflowCode(TRACED_WORKFLOW_BUNDLE_OPTIONS)).code);
}
