/**
 * What the API's first request would otherwise build (issue 41, item 6), built at start; /readyz says not ready
 * until it is done (`warmUpCheck`). Measured on the first charge after a cold start: the Temporal client's
 * protobuf encoders and decoders, the charge's QR picture (its renderer's first run), and the body parser's text
 * decoder, which iconv-lite loads (and tsx compiles) on the first request with a body. Nothing here reaches Temporal,
 * the provider or a store.
 */
import iconv from 'iconv-lite';
import { temporal } from '@temporalio/proto';
import { qrImage } from '../charges/qr-image';
import { buildBrCode } from '../pix/brcode';
import { setUpMessageTypes } from '../temporal/message-types';
import type { ReadinessCheck } from './health-routes';

const service = temporal.api.workflowservice.v1;

/** The requests and answers of every call the API makes to Temporal (src/lifecycles, src/api). */
const API_MESSAGE_TYPES: readonly unknown[] = [
  service.ExecuteMultiOperationRequest,
  service.ExecuteMultiOperationResponse,
  service.PollWorkflowExecutionUpdateRequest,
  service.PollWorkflowExecutionUpdateResponse,
  service.UpdateWorkflowExecutionRequest,
  service.UpdateWorkflowExecutionResponse,
  service.StartWorkflowExecutionRequest,
  service.StartWorkflowExecutionResponse,
  service.SignalWorkflowExecutionRequest,
  service.SignalWorkflowExecutionResponse,
  service.SignalWithStartWorkflowExecutionRequest,
  service.SignalWithStartWorkflowExecutionResponse,
  service.QueryWorkflowRequest,
  service.QueryWorkflowResponse,
  service.DescribeWorkflowExecutionRequest,
  service.DescribeWorkflowExecutionResponse,
  service.GetWorkflowExecutionHistoryRequest,
  service.GetWorkflowExecutionHistoryResponse,
  service.DescribeTaskQueueRequest,
  service.DescribeTaskQueueResponse,
];

/** A code of a charge's usual length: the QR version, and so the renderer's work, is a real charge's. */
const SAMPLE_CODE = buildBrCode({
  pixKey: '52998224725',
  merchantName: 'WARM UP',
  merchantCity: 'SAO PAULO',
  amountCentavos: 1_250,
  txid: 'warmup0000000000000000000',
});

export interface ApiWarmUp {
  /** Resolves when everything is built; never rejects (what failed to warm is built by the first request instead). */
  done: Promise<void>;
  /** For /readyz: not ready until `done`. */
  check: ReadinessCheck;
}

export function warmUpApi(onFailure: (error: unknown) => void): ApiWarmUp {
  let finished = false;
  const done = (async () => {
    iconv.getDecoder('utf-8');
    await qrImage(SAMPLE_CODE);
    await setUpMessageTypes(API_MESSAGE_TYPES);
  })()
    .catch(onFailure)
    .finally(() => {
      finished = true;
    });
  return {
    done,
    check: () => (finished ? Promise.resolve() : Promise.reject(new Error('warming up'))),
  };
}
