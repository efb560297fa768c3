/**
 * The first step of every callback, over the raw bytes before any JSON parsing: its signature, under the
 * PROVIDER_CALLBACK_SIGNATURES policy. 401 on a bad or stale signature, and on a missing one when required.
 */
import type { Request } from 'express';
import type { Logger } from '../../logging/logger';
import { callbacksReceived } from '../../metrics/engine-metrics';
import type { CallbackSignaturePolicy, CallbackVerdict, CallbackVerifier } from '../../payment-api/callback-verifier';
import { ApiError } from '../errors';

/** The callback's verdict (`verified` or, where the policy allows it, `unsigned`); a refused one throws 401. */
export function verifyCallback(
  deps: { verifier: CallbackVerifier; policy: CallbackSignaturePolicy },
  request: { rawBody: Buffer; req: Request; nowSeconds: number; route: string },
  log: Logger,
): Exclude<CallbackVerdict, { kind: 'refused' }> {
  const { rawBody, req, nowSeconds, route } = request;
  const verdict: CallbackVerdict =
    deps.policy === 'off'
      ? { kind: 'unsigned' }
      : deps.verifier.verify({ rawBody, header: (name) => req.get(name), nowSeconds });
  if (verdict.kind === 'refused' || (verdict.kind === 'unsigned' && deps.policy === 'required')) {
    const reason = verdict.kind === 'refused' ? verdict.reason : 'missing-headers';
    callbacksReceived.inc({ route, verification: 'rejected' });
    log.warn('callback.rejected', { reason });
    throw new ApiError(401, 'INVALID_SIGNATURE', `Callback signature rejected: ${reason}`);
  }
  callbacksReceived.inc({ route, verification: verdict.kind === 'verified' ? 'verified' : 'unsigned' });
  return verdict;
}
