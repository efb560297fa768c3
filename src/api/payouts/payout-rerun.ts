/**
 * A payout whose workflow did not finish (terminated mid-submission, say): what its submission intent
 * says, and its re-run. The re-run is a new run of the same workflow id with the input the closed run was
 * started with (read back from its history through the engine's codec); its submission finds the intent
 * the closed run claimed and reconciles with the provider (transaction check) instead of sending again.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { z } from 'zod';
import type { PayoutInput } from '../../payouts/payout-input';

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
  const decoded = await decodeFromPayloadsAtIndex<unknown>(
    client.options.loadedDataConverter,
    0,
    started?.input?.payloads,
  );
  const input = recordedInputSchema.parse(decoded);
  if (input.externalId !== externalId)
    throw new Error(`the history of payout ${externalId} holds the input of ${input.externalId}`);
  return input as unknown as PayoutInput;
}
