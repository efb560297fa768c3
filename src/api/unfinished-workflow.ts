/**
 * A lifecycle's workflow that closed without its outcome (an operator terminated it, say): how it closed,
 * and what the intent of its money movement says was sent (src/intents), so that its view tells an operator
 * what is at the provider before they settle it (docs/operations.md, "Terminate").
 */
import { z } from 'zod';
import { timestampSchema } from './openapi-timestamps';
import { INTENT_STATES, type Intent } from '../intents/intent-store';

/** Temporal's statuses of a workflow that closed without its outcome: only a new run can settle it. */
export const UNFINISHED_STATUSES = ['TERMINATED', 'TIMED_OUT', 'FAILED', 'CANCELLED'] as const;
export type UnfinishedStatus = (typeof UNFINISHED_STATUSES)[number];

export function unfinishedStatus(status: string): UnfinishedStatus | undefined {
  return UNFINISHED_STATUSES.find((unfinished) => unfinished === status);
}

/** The run id a payout recheck claims an absent intent under, so that a late attempt of the closed run finds it claimed and sends nothing. */
export const FENCE_RUN_PREFIX = 'recheck-fence:';

export const intentViewSchema = z.object({
  /** NONE: nothing was claimed, so nothing was sent. */
  intent: z.enum([...INTENT_STATES, 'NONE']),
  providerTransactionId: z.string().optional(),
  claimedAt: timestampSchema.optional(),
});
export type IntentView = z.infer<typeof intentViewSchema>;

export function intentView(intent: Intent | undefined): IntentView {
  if (!intent || intent.runId.startsWith(FENCE_RUN_PREFIX)) return { intent: 'NONE' };
  return {
    intent: intent.state,
    ...(intent.providerId ? { providerTransactionId: intent.providerId } : {}),
    claimedAt: intent.claimedAt.toISOString(),
  };
}
