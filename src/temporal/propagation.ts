/**
 * What crosses from the API to the worker beside a workflow's input: the request id of the API call
 * that started it, as a Temporal header (headers are not encrypted: the id is opaque), and the sink the
 * workflow interceptor reports an operation's start and end to. Imported by workflow code
 * (workflows/shared/engine-interceptors.ts): no I/O here.
 */
import type { Sinks } from '@temporalio/workflow';

export const REQUEST_ID_HEADER = 'payout-engine-request-id';

export interface OperationSinks extends Sinks {
  operations: {
    started(flow: string): void;
    /** The worker measures the time since the workflow's start itself (workflow code keeps off the clock). */
    finished(flow: string, state: string): void;
    /** An activity of the workflow keeps failing (first report of it while it is pending). */
    problem(flow: string, activity: string): void;
  };
}
