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

export function workflowSource(bundlePath: string | undefined): { workflowBundle: { codePath: string } } | { workflowsPath: string } {
  return bundlePath ? { workflowBundle: { codePath: path.resolve(bundlePath) } } : { workflowsPath: WORKFLOWS_PATH };
}

/** How the workflow code is bundled, wherever it is: its interceptors and the engine's failure converter (a prebuilt bundle must carry it). */
export const WORKFLOW_BUNDLE_OPTIONS = { workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES, failureConverterPath: FAILURE_CONVERTER_PATH };

export async function writeWorkflowBundle(outFile: string): Promise<void> {
  const { code } = await bundleWorkflowCode(WORKFLOW_BUNDLE_OPTIONS);
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, code);
}
