/**
 * The yardstick's run: N bare payouts (tools/bench/bare-payout-workflow.ts), started by the bench's own
 * client with the engine's start request, at most `window` of them open at a time as the engine's batch
 * keeps BATCH_WINDOW payouts in flight; a new one starts when one has settled (the stand-in provider's
 * "settled" line, as a payout's outcome reaches its batch store). No `result()` is awaited: nothing waits on
 * Temporal for a bare payout that the engine's batch does not wait on for a payout.
 */
import type { EventEmitter } from 'node:events';
import type { Client } from '@temporalio/client';
import { payoutInput, payoutStartOptions, payoutWorkflowId } from '../../src/lifecycles/payout-client';
import type { PayoutTiming } from '../../src/payouts/payout-input';
import { payoutRequestSchema } from '../../src/payouts/payout-request';
import { benchItems } from './engine-run';

export interface BareRunResult {
  payouts: number;
  workflowIds: string[];
  seconds: number;
  perSecond: number;
}

export async function measureBarePayouts(
  client: Client,
  options: {
    taskQueue: string;
    payouts: number;
    window: number;
    timing: PayoutTiming;
    settled: EventEmitter;
    timeoutMs: number;
  },
): Promise<BareRunResult> {
  const batchId = `bare-${Date.now().toString(36)}`;
  // The engine's inputs: the same items, parsed as the batch store's are, for the same batch-sized payloads.
  const inputs = benchItems(options.payouts, batchId).map((item) =>
    payoutInput(payoutRequestSchema.parse(item), options.timing, batchId),
  );
  const started = performance.now();
  let next = 0;
  let settled = 0;
  const startNext = async (): Promise<void> => {
    const input = inputs[next++];
    if (input) await client.workflow.start('barePayoutWorkflow', payoutStartOptions(input, options.taskQueue));
  };
  await new Promise<void>((resolve, reject) => {
    const finish = (error?: Error): void => {
      clearTimeout(timer);
      options.settled.off('settled', onSettled);
      if (error === undefined) resolve();
      else reject(error);
    };
    const timer = setTimeout(
      () => finish(new Error(`bare payouts: ${settled} of ${options.payouts} settled in ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const onSettled = (): void => {
      settled += 1;
      if (settled >= options.payouts) finish();
      else
        startNext().catch((error: unknown) =>
          finish(error instanceof Error ? error : new Error('a bare payout could not start')),
        );
    };
    options.settled.on('settled', onSettled);
    Promise.all(Array.from({ length: Math.min(options.window, options.payouts) }, startNext)).catch((error: unknown) =>
      finish(error instanceof Error ? error : new Error('a bare payout could not start')),
    );
  });
  const seconds = (performance.now() - started) / 1_000;
  return {
    payouts: options.payouts,
    workflowIds: inputs.map((input) => payoutWorkflowId(input.externalId)),
    seconds,
    perSecond: options.payouts / seconds,
  };
}
