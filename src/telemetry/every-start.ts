/**
 * A client interceptor that amends every way a workflow is started alike (start, startWithDetails, signalWithStart,
 * update-with-start): what a start carries for telemetry, in its options (a memo) or its headers.
 */
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { Headers } from '@temporalio/common';

export interface StartAmendment {
  options?: <T extends { memo?: Record<string, unknown> | undefined }>(options: T) => T;
  headers?: (headers: Headers) => Headers;
}

export function amendEveryStart({
  options = (unchanged) => unchanged,
  headers = (unchanged) => unchanged,
}: StartAmendment): WorkflowClientInterceptor {
  return {
    start: (input, next) => next({ ...input, options: options(input.options), headers: headers(input.headers) }),
    startWithDetails: (input, next) =>
      next({ ...input, options: options(input.options), headers: headers(input.headers) }),
    signalWithStart: (input, next) =>
      next({ ...input, options: options(input.options), headers: headers(input.headers) }),
    startUpdateWithStart: (input, next) =>
      next({
        ...input,
        workflowStartOptions: options(input.workflowStartOptions),
        workflowStartHeaders: headers(input.workflowStartHeaders),
      }),
  };
}
