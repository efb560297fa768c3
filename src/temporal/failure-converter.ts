/**
 * Failures as Temporal stores them: their message and stack trace are moved into an encoded payload
 * (encodeCommonAttributes), which the payload codec encrypts like every other payload. Without this,
 * an activity's failure (the provider's text, a stack trace naming files and values) sits in history in
 * plaintext, readable by whoever reads Temporal's database or its API without the codec.
 *
 * Loaded by path (DataConverter.failureConverterPath): the client and the worker require it, and the
 * workflow bundle includes it, so that a workflow's own failures are encoded the same way.
 */
import { DefaultFailureConverter } from '@temporalio/common';

export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
