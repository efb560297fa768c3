/**
 * Latency under load, not at saturation: single payouts through `POST /v1/payouts` started at a fixed rate
 * (80 % of the engine's measured maximum), each one sent at its time whatever the others are doing (an
 * open loop, as merchants send them), for a fixed time; then, once every one is final, from visibility
 * the time from each workflow's start to its close (all of them), and from sampled histories the two
 * halves a merchant and an operator see: start → its submission recorded (the first workflow task,
 * in which the provider answered, completed), and callback received (its signal, or its update
 * accepted) → `COMPLETED`; their sum per payout is the engine's own time, the provider's wait left out.
 */
import { temporal } from '@temporalio/proto';
import { pollUntil } from '../../src/util/poll';
import { percentile } from './percentile';
import { countWorkflows, submitPayout, type PayoutPhase } from './single-payouts';

export interface PacedRunResult {
  rate: number;
  payouts: number;
  completed: number;
  /** From each workflow's start to its close, every payout of the phase. */
  latencyMs: { p50: number; p99: number };
  submitLatencyMs: { p50: number; p99: number; sampled: number };
  callbackToFinalMs: { p50: number; p99: number; sampled: number };
  /** Per sampled payout, the two halves together: from acceptance to final, less the time the provider took to call back. */
  engineOwnMs: { p50: number; p99: number; sampled: number };
}

const SAMPLED_HISTORIES = 200;

const eventMs = (event: temporal.api.history.v1.IHistoryEvent): number =>
  Number(event.eventTime?.seconds ?? 0) * 1_000 + Math.floor((event.eventTime?.nanos ?? 0) / 1e6);
const quantiles = (values: number[]) => {
  values.sort((a, b) => a - b);
  return { p50: percentile(values, 50), p99: percentile(values, 99) };
};

export async function measurePaced(options: PayoutPhase & { rate: number; seconds: number }): Promise<PacedRunResult> {
  const run = Date.now().toString(36);
  const payouts = Math.max(1, Math.round(options.rate * options.seconds));
  const since = new Date().toISOString();
  const started = performance.now();
  const submissions: Promise<void>[] = [];
  for (let index = 0; index < payouts; index += 1) {
    const due = started + (index * 1_000) / options.rate;
    const wait = due - performance.now();
    // The pacing itself: each payout is sent at its time, not when the one before was answered.
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    submissions.push(
      submitPayout(options.engine, {
        externalId: `paced-${run}-${index}`,
        amount: 1 + (index % 9),
        pixKey: '52998224725',
        keyType: 'CPF',
      }),
    );
  }
  await Promise.all(submissions);
  const query = `PayoutFlow = 'pix-withdrawal' AND BatchId IS NULL AND StartTime >= '${since}'`;
  await pollUntil(
    async () =>
      (await countWorkflows(options.client, `${query} AND ExecutionStatus = 'Completed'`)) >= payouts
        ? true
        : undefined,
    {
      timeoutMs: options.timeoutMs,
      intervalMs: 500,
      description: `${payouts} paced payouts to close`,
    },
  );

  const latencies: number[] = [];
  const workflowIds: string[] = [];
  let completed = 0;
  for await (const execution of options.client.workflow.list({ query: `${query} AND PayoutStatus = 'COMPLETED'` })) {
    if (!execution.closeTime) continue;
    completed += 1;
    workflowIds.push(execution.workflowId);
    latencies.push(execution.closeTime.getTime() - execution.startTime.getTime());
  }
  const submits: number[] = [];
  const callbacks: number[] = [];
  const engineOwn: number[] = [];
  const step = Math.max(1, Math.floor(workflowIds.length / SAMPLED_HISTORIES));
  for (const workflowId of workflowIds.filter((_, index) => index % step === 0).slice(0, SAMPLED_HISTORIES)) {
    const events = (await options.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const first = (type: temporal.api.enums.v1.EventType) => events.find((event) => event.eventType === type);
    const { EventType } = temporal.api.enums.v1;
    const [start, submitted, closed] = [
      first(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED),
      first(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED),
      first(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED),
    ];
    const callback = events.find(
      (event) =>
        event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED ||
        event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
    );
    const submit = start && submitted ? eventMs(submitted) - eventMs(start) : undefined;
    const tail = callback && closed ? eventMs(closed) - eventMs(callback) : undefined;
    if (submit !== undefined) submits.push(submit);
    if (tail !== undefined) callbacks.push(tail);
    if (submit !== undefined && tail !== undefined) engineOwn.push(submit + tail);
  }
  return {
    rate: Number(options.rate.toFixed(1)),
    payouts,
    completed,
    latencyMs: quantiles(latencies),
    submitLatencyMs: { ...quantiles(submits), sampled: submits.length },
    callbackToFinalMs: { ...quantiles(callbacks), sampled: callbacks.length },
    engineOwnMs: { ...quantiles(engineOwn), sampled: engineOwn.length },
  };
}
