/**
 * A provider's callback arrives in a trace of its own (the provider does not send ours back). With
 * tracing on, every workflow start records the starting span in the workflow's memo (`traceparent`), and
 * the callback's span gets a link to it: from the callback, the payout's trace is one click away.
 */
import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { Client, WorkflowClientInterceptor } from '@temporalio/client';
import { amendEveryStart } from './every-start';

export const TRACEPARENT_MEMO = 'traceparent';
/** The link is worth a short wait only: the callback's answer must not be held for it. */
const LINK_DEADLINE_MS = 1_000;

function withTraceparent<T extends { memo?: Record<string, unknown> | undefined }>(options: T): T {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent
    ? { ...options, memo: { ...options.memo, [TRACEPARENT_MEMO]: carrier.traceparent } }
    : options;
}

/** Added after the OpenTelemetry client interceptor, so the span it records is the start's own. */
export function traceparentMemoInterceptor(): WorkflowClientInterceptor {
  return amendEveryStart({ options: withTraceparent });
}

/** Links the active span to the trace that started `workflowId` when tracing is on (the span records); best effort, never throws. */
export async function linkToWorkflowTrace(client: Client, workflowId: string): Promise<void> {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return;
  try {
    const { memo } = await client.withDeadline(Date.now() + LINK_DEADLINE_MS, () =>
      client.workflow.getHandle(workflowId).describe(),
    );
    const traceparent = memo?.[TRACEPARENT_MEMO];
    const linked =
      typeof traceparent === 'string'
        ? trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }))
        : undefined;
    if (linked) span.addLink({ context: linked, attributes: { 'temporal.workflow_id': workflowId } });
  } catch {
    // No link is all that is lost: the callback itself was taken.
  }
}
