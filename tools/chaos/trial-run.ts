/**
 * One chaos trial: faults on, the batch submitted (the same request again, idempotent by batchId, for as
 * long as the API is down or answers 5xx) and the charges, card payments and infractions driven, parts
 * killed and started again on the plan's schedule; then faults off, everything up, the batch and the
 * lifecycles waited for (bounded), the evidence gathered for the checkers, and the merchant events their
 * final states call for looked for at the flapping receiver.
 */
import { z } from 'zod';
import { EngineApiError, EngineApiUnreachableError, EngineClient } from '../../src/client/engine-client';
import { StackClient } from '../cluster/stack-client';
import type { BatchItemResponse } from '../../src/api/batches/schemas';
import { reaisToCentavos } from '../../src/money/centavos';
import { outcomeForAmount, SEEDED_USERS } from '../../sandbox';
import { pollUntil } from '../../src/util/poll';
import type { ChaosStack, ComponentName } from './chaos-stack';
import { checkTrial, type LedgerEntryView, type PayoutReading, type TrialVerdict } from './checker';
import {
  checkLifecycles,
  type LifecycleEvidence,
  type LifecycleKind,
  type LifecycleVerdict,
} from './lifecycle-checker';
import { driveLifecycles, lifecycleEvidence, settleLifecycles } from './lifecycle-trial';
import type { TrialPlan } from './trial-plan';
import {
  checkWebhooks,
  expectedEvent,
  type ExpectedEvent,
  type FlappingEndpoint,
  type WebhookVerdict,
} from './webhook-trial';

export interface TrialTimeouts {
  /** How long the submitter keeps sending the batch request. */
  submitMs: number;
  /** How long the batch may take, once everything is up again, until the checker looks at it anyway. */
  settleMs: number;
}

export interface TrialResult {
  verdict: TrialVerdict;
  lifecycles: Record<LifecycleKind, LifecycleVerdict>;
  /** Without the webhooks flow: undefined. */
  webhooks?: WebhookVerdict;
  kills: Record<ComponentName, number>;
  resubmissions: number;
  /** When the trial began, ms since the run began: where to look in the services' logs. */
  seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const FINAL_STATES = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

const ledgerSchema = z.object({
  entries: z.array(
    z.object({
      externalId: z.string().nullable(),
      operationId: z.string().nullable(),
      lines: z.array(z.object({ account: z.string(), amountCents: z.number().int() })),
    }),
  ),
});
const transfersSchema = z.object({
  operations: z.array(
    z.object({ transactionId: z.string(), details: z.object({ description: z.string().optional() }) }),
  ),
});
const MERCHANT_ACCOUNT = `user:${SEEDED_USERS.merchant.id}`;
const payoutReadingSchema = z.object({ status: z.string(), reviewReason: z.string().optional() });

/** Retries what a dead or Temporal-less API answers (no answer, 5xx, 429); anything else is a real refusal. */
function isTransient(error: unknown): boolean {
  return (
    error instanceof EngineApiUnreachableError ||
    (error instanceof EngineApiError && (error.status >= 500 || error.status === 429))
  );
}

/** Sends the same request, at the plan's moment, until it is accepted or the deadline passes; counts the repeats. */
async function submitUntilAccepted(
  api: EngineClient,
  plan: TrialPlan,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<{ accepted: boolean; resubmissions: number }> {
  await sleep(plan.submitAfterMs);
  const body = JSON.stringify({ batchId: plan.batchId, items: plan.items });
  const deadline = Date.now() + timeoutMs;
  for (let resubmissions = 0; ; resubmissions += 1) {
    try {
      await api.submitJson(body);
      if (resubmissions > 0) log(`trial ${plan.trial}: batch accepted after ${resubmissions} resubmissions`);
      return { accepted: true, resubmissions };
    } catch (error) {
      if (!isTransient(error)) throw error;
      if (resubmissions === 0)
        log(
          `trial ${plan.trial}: batch request answered ${error instanceof Error ? error.message : String(error)}; sending it again`,
        );
      if (Date.now() >= deadline) {
        log(
          `trial ${plan.trial}: batch not accepted within ${timeoutMs} ms (${error instanceof Error ? error.message : String(error)})`,
        );
        return { accepted: false, resubmissions };
      }
      await sleep(500);
    }
  }
}

async function killOnSchedule(
  stack: ChaosStack,
  plan: TrialPlan,
  kills: Record<ComponentName, number>,
  log: (line: string) => void,
): Promise<void> {
  const restarts: Promise<void>[] = [];
  for (const step of plan.kills) {
    await sleep(step.afterMs);
    const part = stack.parts[step.target];
    if (!part) continue;
    restarts.push(
      (async () => {
        if (!(await part.kill())) return;
        kills[step.target] += 1;
        log(`trial ${plan.trial}: killed ${step.target}, down for ${step.downMs} ms`);
        await sleep(step.downMs);
        await part.start();
      })(),
    );
  }
  await Promise.all(restarts);
}

async function sandboxAdminGet(stack: ChaosStack, path: string): Promise<unknown> {
  const response = await fetch(`${stack.sandboxUrl}${path}`, {
    headers: { authorization: `Bearer ${stack.config.SANDBOX_ADMIN_TOKEN}` },
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`sandbox ${path} answered ${response.status}`);
  return response.json();
}

const sandboxLedger = async (stack: ChaosStack): Promise<LedgerEntryView[]> =>
  ledgerSchema.parse(await sandboxAdminGet(stack, '/sandbox/ledger')).entries;

/** Every internal transfer at the provider, by its id → the item its description names (a chaos item's description is its externalId). */
async function sandboxTransfers(stack: ChaosStack): Promise<Map<string, string>> {
  const { operations } = transfersSchema.parse(
    await sandboxAdminGet(stack, '/sandbox/operations?product=internal-transfer&limit=100000'),
  );
  return new Map(
    operations.flatMap((operation) =>
      operation.details.description ? [[operation.transactionId, operation.details.description] as const] : [],
    ),
  );
}

async function batchItems(api: EngineClient, batchId: string): Promise<BatchItemResponse[] | undefined> {
  const items: BatchItemResponse[] = [];
  let cursor: string | undefined;
  try {
    do {
      const page = await api.batchItems(batchId, { limit: 1_000, ...(cursor ? { cursor } : {}) });
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
  } catch (error) {
    if (error instanceof EngineApiError && error.status === 404) return undefined;
    throw error;
  }
  return items;
}

async function readPayout(stack: ChaosStack, externalId: string): Promise<PayoutReading> {
  const response = await fetch(`${stack.engineUrl}/v1/payouts/${encodeURIComponent(externalId)}`, {
    headers: { authorization: `Bearer ${stack.config.ENGINE_API_KEYS[0]?.secret ?? ''}` },
    signal: AbortSignal.timeout(15_000),
  });
  if (response.status === 404) return { known: false };
  if (!response.ok) throw new Error(`GET /v1/payouts/${externalId} answered ${response.status}`);
  const payout = payoutReadingSchema.parse(await response.json());
  return { known: true, ...(payout.reviewReason ? { reviewReason: payout.reviewReason } : {}) };
}

/** Reads with retries: the stack is up, but a loaded machine may still be slow to answer. */
const patiently = <T>(read: () => Promise<T>, description: string): Promise<T> =>
  pollUntil(async () => ({ value: await read() }), { timeoutMs: 60_000, intervalMs: 1_000, description }).then(
    ({ value }) => value,
  );

/** The sandbox's rule (outcomeForAmount): these stay PROCESSING at the provider forever (an internal transfer is done at once). */
function neverSettlingItems(plan: TrialPlan): Set<string> {
  return new Set(
    plan.items
      .filter((item) => item.method !== 'internal' && outcomeForAmount(reaisToCentavos(item.amount)).status === 'NEVER')
      .map((item) => item.externalId),
  );
}

export const zeroKills = (): Record<ComponentName, number> => ({
  worker: 0,
  api: 0,
  sandbox: 0,
  temporal: 0,
  postgres: 0,
});

/** The events the final states of the trial call for: every payout's, the batch's, every lifecycle's. */
function expectedEvents(
  plan: TrialPlan,
  items: readonly BatchItemResponse[] | undefined,
  batchDone: boolean,
  lifecycles: readonly LifecycleEvidence[],
): ExpectedEvent[] {
  const events = [
    ...(items ?? []).map((item) => expectedEvent('payout', item.status, item.externalId)),
    ...lifecycles.map((item) =>
      item.engine.known ? expectedEvent(item.kind, item.engine.status, item.id) : undefined,
    ),
  ].filter((event): event is ExpectedEvent => event !== undefined);
  return batchDone ? [...events, ['payout_batch.completed', plan.batchId] as const] : events;
}

const byKind = (evidence: readonly LifecycleEvidence[]): Record<LifecycleKind, LifecycleVerdict> => ({
  charge: checkLifecycles(evidence.filter((item) => item.kind === 'charge')),
  cardPayment: checkLifecycles(evidence.filter((item) => item.kind === 'cardPayment')),
  infraction: checkLifecycles(evidence.filter((item) => item.kind === 'infraction')),
});

export async function runTrial(
  stack: ChaosStack,
  plan: TrialPlan,
  timeouts: TrialTimeouts,
  log: (line: string) => void,
  runStartedAt: number,
  endpoint?: FlappingEndpoint,
): Promise<TrialResult> {
  const startedAt = Date.now();
  const kills = zeroKills();
  const api = new EngineClient({ baseUrl: stack.engineUrl, apiKey: stack.config.ENGINE_API_KEYS[0]?.secret ?? '' });
  const client = StackClient.of(stack, { patienceMs: timeouts.submitMs });
  const hasBatch = plan.items.length > 0;

  await stack.setFaults(plan.faults);
  const killing = killOnSchedule(stack, plan, kills, log);
  const driving = driveLifecycles(client, plan.lifecycles, (line) => log(`trial ${plan.trial}: ${line}`));
  let accepted = false;
  let resubmissions = 0;
  try {
    if (hasBatch) ({ accepted, resubmissions } = await submitUntilAccepted(api, plan, timeouts.submitMs, log));
  } finally {
    await killing;
  }
  await stack.allUp();
  await stack.clearFaults();
  const driven = await driving;

  let batchDone = false;
  if (accepted) {
    await pollUntil(
      async () => {
        const summary = await api.batchSummary(plan.batchId);
        return summary.done && summary.finishedAt ? true : undefined;
      },
      { timeoutMs: timeouts.settleMs, intervalMs: 1_000, description: `batch ${plan.batchId} to finish` },
    ).then(
      () => {
        batchDone = true;
      },
      (error: unknown) =>
        log(`trial ${plan.trial}: ${error instanceof Error ? error.message : String(error)}; checking it as it is`),
    );
  }
  await settleLifecycles(client, plan.lifecycles, driven, timeouts.settleMs, (line) =>
    log(`trial ${plan.trial}: ${line}`),
  );

  const items = accepted
    ? await patiently(() => batchItems(api, plan.batchId), `the items of ${plan.batchId}`)
    : undefined;
  const payouts = new Map<string, PayoutReading>();
  for (const item of items ?? []) {
    if (!FINAL_STATES.has(item.status))
      payouts.set(
        item.externalId,
        await patiently(() => readPayout(stack, item.externalId), `payout ${item.externalId}`),
      );
  }
  const ledger = hasBatch ? await patiently(() => sandboxLedger(stack), 'the sandbox ledger') : [];
  const transfers = hasBatch
    ? await patiently(() => sandboxTransfers(stack), 'the sandbox internal transfers')
    : new Map<string, string>();
  const verdict = checkTrial({
    submitted: plan.items.map((item) => item.externalId),
    items,
    ledger,
    merchantAccount: MERCHANT_ACCOUNT,
    transfers,
    payouts,
    neverSettling: neverSettlingItems(plan),
  });
  const evidence = await lifecycleEvidence(client, plan.lifecycles, driven);
  const webhooks = endpoint
    ? await checkWebhooks(endpoint, expectedEvents(plan, items, batchDone, evidence), timeouts.settleMs, (line) =>
        log(`trial ${plan.trial}: ${line}`),
      )
    : undefined;
  return {
    verdict,
    lifecycles: byKind(evidence),
    ...(webhooks ? { webhooks } : {}),
    kills,
    resubmissions,
    seconds: Math.round((startedAt - runStartedAt) / 1_000),
  };
}
