/**
 * What the worker's first task would otherwise build (issue 41, item 6), built before it polls: the encoders and
 * decoders of the Temporal SDK's messages between its core and its JavaScript (activations, completions, activity
 * tasks). Measured, they were a third of the worker's main thread's part of the first charge. The worker polls only
 * after this, so a worker listed as a poller of the task queue (what /readyz asks) is a warm one.
 *
 * In the worker's workflow thread only the bundle's own code runs before the first task: it reads one stack trace as
 * it loads, so that the SDK parses the bundle's source map then (workflows/index.ts). The rest of that thread's first
 * task (the SDK's own message code there, the workflow code's first run) stays: that V8 isolate is the worker's own
 * (a replay worker has threads of its own), and only a task of the worker's, that is a real workflow, reaches it.
 */
import { coresdk } from '@temporalio/proto';
import { setUpMessageTypes } from '../temporal/message-types';

const WORKER_MESSAGE_TYPES: readonly unknown[] = [
  coresdk.workflow_activation.WorkflowActivation,
  coresdk.workflow_completion.WorkflowActivationCompletion,
  coresdk.activity_task.ActivityTask,
  coresdk.ActivityTaskCompletion,
  coresdk.ActivityHeartbeat,
];

/** Resolves to how many message types were set up. */
export function warmUpWorker(): Promise<number> {
  return setUpMessageTypes(WORKER_MESSAGE_TYPES);
}
