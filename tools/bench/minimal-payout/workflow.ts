/**
 * The minimal Temporal payout: what a Temporal engineer writes for a PIX-key payout with none of the engine's code
 * (the bench's yardstick, docs/benchmarks.md). Started eagerly by its own worker's process; its first task submits
 * the withdrawal (one local activity); the provider's callback arrives as an update; the task that update wakes
 * checks the withdrawal (one local activity) and completes. Deterministic, like every workflow.
 */
import { condition, defineUpdate, proxyLocalActivities, setHandler, sleep } from '@temporalio/workflow';
import type { CallbackHint, MinimalPayoutInput, MinimalPayoutResult, MinimalProviderCalls } from './contract';

export const withdrawalCallbackUpdate = defineUpdate<void, [CallbackHint]>('withdrawalCallback');

const { submitWithdrawal, checkWithdrawal } = proxyLocalActivities<MinimalProviderCalls>({
  startToCloseTimeout: '10 seconds',
  // The provider de-duplicates by external_id: a retried submission answers with the first one's withdrawal.
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

/** A callback that never comes, or a check that is not yet final, is looked at again; the wait ends within an hour. */
const CALLBACK_WAIT = '1 hour';
const RECHECKS = 5;
const RECHECK_PAUSE = '1 minute';

export async function minimalPayout(input: MinimalPayoutInput): Promise<MinimalPayoutResult> {
  let called = false;
  setHandler(withdrawalCallbackUpdate, () => {
    called = true;
  });
  const { transactionId } = await submitWithdrawal(input);
  await condition(() => called, CALLBACK_WAIT);
  let state = await checkWithdrawal(transactionId);
  for (let recheck = 0; recheck < RECHECKS && state !== 'COMPLETO' && state !== 'FALHA'; recheck += 1) {
    await sleep(RECHECK_PAUSE);
    state = await checkWithdrawal(transactionId);
  }
  return { externalId: input.externalId, transactionId, state };
}
