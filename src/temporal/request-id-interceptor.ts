/** The client side of request id propagation: every workflow start carries the current request id as a header. */
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { defaultPayloadConverter, type Headers } from '@temporalio/common';
import { currentRequestId } from '../logging/request-context';
import { REQUEST_ID_HEADER } from './propagation';
import { amendEveryStart } from '../telemetry/every-start';

function withRequestId(headers: Headers): Headers {
  const requestId = currentRequestId();
  return requestId === undefined
    ? headers
    : { ...headers, [REQUEST_ID_HEADER]: defaultPayloadConverter.toPayload(requestId) };
}

export function requestIdClientInterceptor(): WorkflowClientInterceptor {
  return amendEveryStart({ headers: withRequestId });
}
