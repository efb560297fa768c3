/**
 * A payout batch, id `payout-batch:<batchId>`. The items live in the batch store, not in Temporal: an
 * activity starts the next items as ordinary payout workflows (`payout:<externalId>`), each payout
 * records its own outcome in the store, and this workflow only reads counts back to keep at most
 * `window` payouts in flight. Its history therefore grows with time, not with the number of items, and
 * it continues as new before it grows large, carrying only its cursor.
 */
import { ActivityFailure, condition, continueAsNew, proxyActivities, setCurrentDetails, setHandler, sleep, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { BatchActivities } from '../../activities/batch-activities';
import type { PayoutTiming } from '../../src/payouts/payout-input';
import { BatchId, BatchStatus, Flow } from '../../src/temporal/search-attributes';
import { failureMessage } from '../shared/activity-failures';
import { BATCH_FLOW, batchProgressQuery, cancelBatchSignal, pauseBatchSignal, resumeBatchSignal, type BatchProblem } from './messages';

/** The longest wait between two readings of the counts. */
const MAX_POLL_MS = 30_000;
/** The longest wait between two tries of an activity that keeps failing (a corrupt row, a full disk). */
const MAX_PROBLEM_RETRY_MS = 600_000;
const DEFAULT_PROBLEM_AFTER_MS = 300_000;

export interface BatchSettings {
  /** Payouts in flight at most. */
  window: number;
  /** Optional cap on payouts started per second. */
  ratePerSecond?: number;
  /** Most items started by one activity call. */
  pageSize: number;
  /** How often the workflow reads the counts while the window is full. */
  pollMs: number;
  /** Continue as new past this many history events. */
  maxHistoryEvents: number;
  /** An activity failing this long is shown as the batch's problem (status STALLED), then tried again with backoff. */
  problemAfterMs?: number;
}

interface CarriedState {
  cursor: number;
  paused: boolean;
  cancelled: boolean;
  runsSoFar: number;
}

export interface BatchInput {
  batchId: string;
  total: number;
  settings: BatchSettings;
  timing: PayoutTiming;
  carried?: CarriedState;
}

export interface BatchResult {
  batchId: string;
  cancelled: boolean;
  runs: number;
}

export async function payoutBatchWorkflow(input: BatchInput): Promise<BatchResult> {
  const { batchId, settings } = input;
  const carried = input.carried ?? { cursor: 0, paused: false, cancelled: false, runsSoFar: 0 };
  let { cursor, paused, cancelled } = carried;
  let inFlight = 0;
  let problem: BatchProblem | undefined;
  const run = carried.runsSoFar + 1;
  const status = (): string => (problem ? 'STALLED' : cancelled ? 'CANCELLED' : paused ? 'PAUSED' : 'RUNNING');
  // Every try of an activity is bounded: one that keeps failing is reported, not retried silently forever.
  const activities = proxyActivities<BatchActivities>({
    // Short: a worker that dies mid-call is noticed quickly (starting a page of payouts takes seconds).
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: settings.problemAfterMs ?? DEFAULT_PROBLEM_AFTER_MS,
    retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
  });
  upsertSearchAttributes({ [Flow.name]: [BATCH_FLOW], [BatchId.name]: [batchId], [BatchStatus.name]: [status()] });

  let controlChanged = false;
  const control = (change: () => void) => () => {
    change();
    controlChanged = true;
    upsertSearchAttributes({ [BatchStatus.name]: [status()] });
  };
  setHandler(pauseBatchSignal, control(() => (paused = true)));
  setHandler(resumeBatchSignal, control(() => (paused = false)));
  setHandler(cancelBatchSignal, control(() => (cancelled = true)));
  setHandler(batchProgressQuery, () => ({ batchId, cursor, inFlight, paused, cancelled, runsSoFar: run, ...(problem ? { problem } : {}) }));

  /** Runs an activity until it succeeds; while it fails past its bounded time, the batch shows why. */
  const persist = async <T>(activity: string, call: () => Promise<T>): Promise<T> => {
    let retryMs = settings.pollMs;
    for (;;) {
      try {
        const result = await call();
        if (problem) {
          problem = undefined;
          upsertSearchAttributes({ [BatchStatus.name]: [status()] });
        }
        return result;
      } catch (error) {
        if (!(error instanceof ActivityFailure)) throw error;
        problem = { activity, message: failureMessage(error), since: problem?.since ?? new Date().toISOString() };
        upsertSearchAttributes({ [BatchStatus.name]: [status()] });
        setCurrentDetails(`**STALLED** since ${problem.since}: ${activity} keeps failing: ${problem.message}`);
        await sleep(retryMs);
        retryMs = Math.min(retryMs * 2, MAX_PROBLEM_RETRY_MS);
      }
    }
  };
  const startBatchPayouts = (...args: Parameters<BatchActivities['startBatchPayouts']>) => persist('startBatchPayouts', () => activities.startBatchPayouts(...args));
  const batchCounts = (id: string) => persist('batchCounts', () => activities.batchCounts(id));
  const cancelPendingItems = (id: string) => persist('cancelPendingItems', () => activities.cancelPendingItems(id));
  const closeBatch = (id: string) => persist('closeBatch', () => activities.closeBatch(id));

  const continueIfLarge = async (): Promise<void> => {
    if (workflowInfo().historyLength < settings.maxHistoryEvents && !workflowInfo().continueAsNewSuggested) return;
    await continueAsNew<typeof payoutBatchWorkflow>({ ...input, carried: { cursor, paused, cancelled, runsSoFar: run } });
  };
  // Polls every pollMs while counts move; while nothing moves (a paused batch, a payout waiting for
  // review for hours) the wait doubles up to MAX_POLL_MS, so an idle batch costs next to nothing.
  let waitMs = settings.pollMs;
  const readInFlight = async (): Promise<number> => {
    const now = (await batchCounts(batchId)).inFlight;
    if (now !== inFlight) waitMs = settings.pollMs;
    inFlight = now;
    // Shown on the batch's page in the Temporal UI (not a command: replay-neutral).
    setCurrentDetails(`**${status()}**: ${cursor} of ${input.total} started, ${inFlight} in flight (run ${run})`);
    return now;
  };
  /** Waits the current poll interval, or less when an operator pauses, resumes or cancels. */
  const waitPollInterval = async (): Promise<void> => {
    controlChanged = false;
    const interrupted = await condition(() => controlChanged, waitMs);
    waitMs = interrupted ? settings.pollMs : Math.min(waitMs * 2, Math.max(settings.pollMs, MAX_POLL_MS));
  };

  // Start items while the window has room; read the counts back while it has none.
  while (!cancelled && cursor < input.total) {
    if (paused) {
      await waitPollInterval();
    } else {
      await readInFlight();
      const room = Math.min(settings.window - inFlight, settings.pageSize, settings.ratePerSecond ?? Number.POSITIVE_INFINITY);
      if (room > 0 && !cancelled && !paused) {
        const page = await startBatchPayouts(batchId, cursor, room, input.timing);
        // An empty page before `total` means the store has no more items: nothing is left to start.
        cursor = page.started === 0 ? input.total : page.lastSeq;
        inFlight += page.started;
        if (settings.ratePerSecond) await sleep(1_000);
      } else {
        await waitPollInterval();
      }
    }
    await continueIfLarge();
  }

  if (cancelled) await cancelPendingItems(batchId);
  // Nothing more starts: wait for the payouts in flight to reach an outcome.
  for (;;) {
    if ((await readInFlight()) === 0) break;
    await waitPollInterval();
    await continueIfLarge();
  }
  await closeBatch(batchId);
  upsertSearchAttributes({ [BatchStatus.name]: [cancelled ? 'CANCELLED' : 'DONE'] });
  return { batchId, cancelled, runs: run };
}
