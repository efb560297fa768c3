/**
 * What payouts waiting for their callback cost the worker's memory: N single payouts whose amounts end in
 * .14 (the sandbox's rule: the withdrawal stays PROCESSING and no callback comes) submitted through the API,
 * until every one is SUBMITTED and waiting (the bench sets PAYOUT_CALLBACK_WAIT_MS past the phase, so no
 * check polls meanwhile); then the worker's resident memory, and its growth per thousand open payouts. The
 * worker keeps WORKER_MAX_CACHED_WORKFLOWS of them in its cache; the rest live in the server until woken.
 */
import { z } from 'zod';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { rssBytes } from '../stack/child-services';
import { countWorkflows, submitPayout, type EngineApi, type PayoutPhase } from './single-payouts';

export interface OpenWorkflowsResult {
  payouts: number;
  /** The worker's resident memory before the phase and with every payout open, in MB. */
  rssBeforeMb: number;
  rss: number;
  mbPerThousand: number;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

const summarySchema = z.object({ byStatus: z.array(z.object({ status: z.string(), count: z.number() })) });

/**
 * Payouts SUBMITTED, as the API's summary (the read model) counts them: the visibility index does not show the
 * state (a payout's SUBMITTED costs no visibility write). From yesterday to tomorrow, so that midnight changes nothing.
 */
async function submittedCount(engine: EngineApi): Promise<number> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const response = await fetch(`${engine.url}/v1/payouts/summary?from=${day(-1)}&to=${day(1)}&timeZone=UTC`, {
    headers: { authorization: `Bearer ${engine.apiKey}` },
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`payout summary: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
  const summary = summarySchema.parse(await response.json());
  return summary.byStatus.find((row) => row.status === 'SUBMITTED')?.count ?? 0;
}

export async function measureOpenWorkflows(
  options: PayoutPhase & { payouts: number; workerPid: number; concurrency: number },
): Promise<OpenWorkflowsResult> {
  const run = Date.now().toString(36);
  const before = rssBytes(options.workerPid) ?? Number.NaN;
  const submittedBefore = await submittedCount(options.engine);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(options.concurrency, options.payouts) }, async () => {
      while (next < options.payouts) {
        const index = next++;
        // Small amounts: the sandbox's merchant opens with R$ 1,000,000 and the engine phase's 10,000 payouts take over
        // half of it; at the engine's amounts the default 10,000 open payouts ran out of balance (FAILED, never SUBMITTED).
        await submitPayout(options.engine, {
          externalId: `open-${run}-${index}`,
          amount: (114 + 100 * (index % 9)) / 100,
          pixKey: '52998224725',
          keyType: 'CPF',
        });
      }
    }),
  );
  const failed = `WorkflowId STARTS_WITH 'payout:open-${run}-' AND PayoutStatus = 'FAILED'`;
  await pollUntil(
    async () => {
      // A refused payout never waits: say so now, not when the phase's timeout passes.
      const refused = await countWorkflows(options.client, failed);
      if (refused > 0)
        throw new StopPolling(
          `${refused} of the open payouts FAILED at the provider (its balance?), so they cannot wait for a callback`,
        );
      return (await submittedCount(options.engine)) >= submittedBefore + options.payouts ? true : undefined;
    },
    {
      timeoutMs: options.timeoutMs,
      intervalMs: 1_000,
      description: `${options.payouts} payouts to wait for their callback`,
    },
  );
  const after = rssBytes(options.workerPid) ?? Number.NaN;
  return {
    payouts: options.payouts,
    rssBeforeMb: mb(before),
    rss: mb(after),
    mbPerThousand: Number((mb(after - before) / (options.payouts / 1_000)).toFixed(1)),
  };
}
