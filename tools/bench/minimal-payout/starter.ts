/**
 * The bench's run of minimal payouts, inside the payout's own process (eager start needs the worker's connection):
 * at most `window` open at a time, as the engine's batch keeps its window in flight, a new one started eagerly once
 * a check found one final; or, given a `rate`, one started every 1/rate s whatever is open (the cluster bench's
 * paced phase, as merchants send single payouts). Amounts as the engine's bench items: whole reais, never the
 * sandbox's .13 and .14 rules.
 */
import type { EventEmitter } from 'node:events';
import type { Client } from '@temporalio/client';
import { minimalPayoutWorkflowId, type MinimalPayoutInput } from './contract';
import { minimalPayout } from './workflow';

export const FINAL_STATES = new Set(['COMPLETO', 'FALHA']);

export interface StarterRun {
  payouts: number;
  /** Started with their first workflow task handed back in the start's answer. */
  eagerlyStarted: number;
  /** How many checks found each final state. */
  states: Record<string, number>;
  seconds: number;
}

export async function runPayouts(
  client: Client,
  options: { taskQueue: string; prefix: string; payouts: number; window: number; rate?: number; checked: EventEmitter },
): Promise<StarterRun> {
  const started = performance.now();
  const states: Record<string, number> = {};
  let next = 0;
  let settled = 0;
  let eagerlyStarted = 0;
  const startNext = async (): Promise<void> => {
    const index = next++;
    if (index >= options.payouts) return;
    const input: MinimalPayoutInput = {
      externalId: `${options.prefix}-${index}`,
      amountCents: (10 + (index % 90)) * 100,
      pixKey: '52998224725',
      keyType: 'CPF',
    };
    const handle = await client.workflow.start(minimalPayout, {
      workflowId: minimalPayoutWorkflowId(input.externalId),
      taskQueue: options.taskQueue,
      args: [input],
      requestEagerStart: true,
    });
    if (handle.eagerlyStarted) eagerlyStarted += 1;
  };
  await new Promise<void>((resolve, reject) => {
    const onChecked = (state: string): void => {
      if (!FINAL_STATES.has(state)) return;
      states[state] = (states[state] ?? 0) + 1;
      settled += 1;
      if (settled < options.payouts) {
        if (options.rate === undefined) startNext().catch(fail);
      } else {
        options.checked.off('checked', onChecked);
        resolve();
      }
    };
    const fail = (error: unknown): void => {
      options.checked.off('checked', onChecked);
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    options.checked.on('checked', onChecked);
    const { rate } = options;
    if (rate !== undefined) {
      // Each start at its time, not when the one before was answered.
      (async () => {
        for (let index = 0; index < options.payouts; index += 1) {
          const wait = started + (index * 1_000) / rate - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          startNext().catch(fail);
        }
      })().catch(fail);
      return;
    }
    // The window filled one start after another: each finds a free workflow-task slot for its eager first task,
    // where a burst of them would find the slots taken and fall back to the task queue.
    (async () => {
      for (let index = 0; index < Math.min(options.window, options.payouts); index += 1) await startNext();
    })().catch(fail);
  });
  return { payouts: options.payouts, eagerlyStarted, states, seconds: (performance.now() - started) / 1_000 };
}
