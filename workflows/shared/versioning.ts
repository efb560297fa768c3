/**
 * A workflow type's Worker Versioning behaviour, declared beside its registration (workflows/index.ts). Named only on a versioned worker's
 * tasks (WORKER_DEPLOYMENT_NAME): the server refuses an unversioned worker's task completion that names one ("versioning
 * behavior cannot be specified without deployment options"), and unversioned is the default.
 * PINNED: a run ends on the build that started it. AUTO_UPGRADE: it moves to the current build at its next task,
 * its changes behind patched() markers keeping it replaying there.
 */
import type { VersioningBehavior } from '@temporalio/common';
import { setWorkflowOptions, workflowInfo } from '@temporalio/workflow';

export function declareVersioning<A extends unknown[], R>(
  behavior: VersioningBehavior,
  workflow: (...args: A) => Promise<R>,
): void {
  setWorkflowOptions(
    () => (workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: behavior } : {}),
    workflow,
  );
}
