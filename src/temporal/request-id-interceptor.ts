/** The client side of request id propagation: every workflow start carries the current request id as a header. */
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { defaultPayloadConverter, type Headers } from '@temporalio/common';
import { currentRequestId } from '../logging/request-context';
import { REQUEST_ID_HEADER } from './propagation';

function withRequestId(headers: Headers): Headers {
  const requestId = currentRequestId();
  return requestId === undefined
    ? headers
    : { ...headers, [REQUEST_ID_HEADER]: defaultPayloadConverter.toPayload(requestId) };
}

export function requestIdClientInterceptor(): WorkflowClientInterceptor {
  return {
    start: (input, next) => next({ ...input, headers: withRequestId(input.headers) }),
    startWithDetails: (input, next) => next({ ...input, headers: withRequestId(input.headers) }),
    signalWithStart: (input, next) => next({ ...input, headers: withRequestId(input.headers) }),
    startUpdateWithStart: (input, next) =>
      next({ ...input, workflowStartHeaders: withRequestId(input.workflowStartHeaders) }),
  };
}
