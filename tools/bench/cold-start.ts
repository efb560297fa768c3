/**
 * The first requests after a cold start (issue 41, item 6): on a stack that has just said ready on /readyz, the first
 * PIX charge (its answer) and the first payout (its 202, then from that acceptance to COMPLETED), then a second of
 * each, whose figures are what the first would cost warm. The payout's figure includes the provider's callback delay.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { payoutHandle } from '../../src/lifecycles/payout-client';
import { PayoutStatus } from '../../src/temporal/search-attributes';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { timedCharge } from './charge-latency';
import { submitPayout, type EngineApi } from './single-payouts';

export interface RequestLatency {
  chargeMs: number;
  payoutAcceptMs: number;
  payoutAcceptedToCompletedMs: number;
}

export interface ColdStartResult {
  first: RequestLatency;
  second: RequestLatency;
  /** The first charge's time over the second's, in the same run: what the cold start costs, whatever the machine's load. */
  chargeFirstOverSecond: number;
}

/** Polled often (the figure is a latency), bounded, and refused at once if the payout will not complete. */
async function completed(client: Client, externalId: string): Promise<void> {
  await pollUntil(
    async () => {
      const description = await payoutHandle(client, externalId).describe();
      const state = description.typedSearchAttributes.get(PayoutStatus);
      if (state === 'FAILED' || state === 'NEEDS_REVIEW')
        throw new StopPolling(`cold-start payout ${externalId} went ${state}`);
      return description.status.name === 'COMPLETED' ? true : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 20, description: `cold-start payout ${externalId} to complete` },
  );
}

async function oneOfEach(engine: EngineApi, client: Client, id: string): Promise<RequestLatency> {
  const chargeMs = await timedCharge({ baseUrl: engine.url, apiKey: engine.apiKey }, `cold-charge-${id}`, 12);
  const externalId = `cold-payout-${id}`;
  const submitted = performance.now();
  await submitPayout(engine, { externalId, amount: 12, pixKey: '52998224725', keyType: 'CPF' });
  const accepted = performance.now();
  await completed(client, externalId);
  const round = Math.round;
  return {
    chargeMs: round(chargeMs),
    payoutAcceptMs: round(accepted - submitted),
    payoutAcceptedToCompletedMs: round(performance.now() - accepted),
  };
}

export async function measureColdStart(engine: EngineApi, client: Client): Promise<ColdStartResult> {
  const run = randomUUID().slice(0, 8);
  const first = await oneOfEach(engine, client, `${run}-1`);
  const second = await oneOfEach(engine, client, `${run}-2`);
  return { first, second, chargeFirstOverSecond: Number((first.chargeMs / second.chargeMs).toFixed(1)) };
}
