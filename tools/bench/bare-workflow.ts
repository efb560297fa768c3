/**
 * The benchmark's yardstick: the shape of a payout (two activities around one signal) with no work
 * inside, so that its throughput is what the Temporal server and worker allow on this machine.
 */
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { BareActivities } from './bare-activities';

export const bareSignal = defineSignal('bareSignal');

const { noop } = proxyActivities<BareActivities>({ startToCloseTimeout: '30 seconds' });

export async function bareWorkflow(): Promise<void> {
  let signalled = false;
  setHandler(bareSignal, () => {
    signalled = true;
  });
  await noop();
  await condition(() => signalled);
  await noop();
}
