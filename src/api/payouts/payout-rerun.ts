/**
 * A payout whose workflow did not finish (terminated mid-submission, say): what its submission intent
 * says, and its re-run. The re-run is a new run of the same workflow id with the input the closed run was
 * started with (read back from its history through the engine's codec); its submission finds the intent
 * the closed run claimed and reconciles with the provider (transaction check) instead of sending again.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { z } from 'zod';
import { INTENT_STATES, type Intent } from '../../intents/intent-store';
import type { PayoutInput } from '../../payouts/payout-input';

/** Temporal's statuses of a payout workflow that closed without its outcome: only a re-run can settle it. */
export const UNFINISHED_STATUSES = ['TERMINATED', 'TIMED_OUT', 'FAILED', 'CANCELLED'] as const;
export type UnfinishedStatus = (typeof UNFINISHED_STATUSES)[number];

export function unfinishedStatus(status: string): UnfinishedStatus | undefined {
  return UNFINISHED_STATUSES.find((unfinished) => unfinished === status);
}

/** The run id a recheck claims an absent intent under, so that a late attempt of the closed run finds it claimed and sends nothing. */
export const FENCE_RUN_PREFIX = 'recheck-fence:';

export const submissionViewSchema = z.object({
  /** NONE: nothing was claimed, so nothing was sent (a recheck then fences it: nothing ever will be). */
  intent: z.enum([...INTENT_STATES, 'NONE']),
  providerTransactionId: z.string().optional(),
  claimedAt: z.string().optional(),
});
export type SubmissionView = z.infer<typeof submissionViewSchema>;

export function submissionView(intent: Intent | undefined): SubmissionView {
  if (!intent || intent.runId.startsWith(FENCE_RUN_PREFIX)) return { intent: 'NONE' };
  return { intent: intent.state, ...(intent.providerId ? { providerTransactionId: intent.providerId } : {}), claimedAt: intent.claimedAt.toISOString() };
}

/** What the re-run needs to be the same payout; the rest of the input passes as it was recorded. */
const recordedInputSchema = z.looseObject({
  externalId: z.string().min(1),
  amountCents: z.number().int().positive(),
  requestHash: z.string().min(1),
  timing: z.looseObject({ submitDeadlineMs: z.number() }),
});

/** The input the closed run was started with, from the first event of its history. */
export async function recordedInput(client: Client, handle: WorkflowHandle, externalId: string): Promise<PayoutInput> {
  const history = await handle.fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const decoded = await decodeFromPayloadsAtIndex<unknown>(client.options.loadedDataConverter, 0, started?.input?.payloads);
  const input = recordedInputSchema.parse(decoded);
  if (input.externalId !== externalId) throw new Error(`the history of payout ${externalId} holds the input of ${input.externalId}`);
  return input as unknown as PayoutInput;
}
