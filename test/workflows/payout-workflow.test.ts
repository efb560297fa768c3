/**
 * The payout workflow alone, on the time-skipping test server, with a scripted provider in place of the
 * activities: every transition of the state table, the review deadline of a day in skipped time, and the
 * answers of concurrent and early updates. What crosses processes is tested end to end in test/payouts.
 */
import { randomUUID } from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { CheckOutcome, PayoutActivities, SubmitOutcome } from '../../activities/payout-activities';
import { PAYOUT_WORKFLOW_VERSION, type PayoutInput } from '../../src/payouts/payout-input';
import { pollUntil } from '../../src/util/poll';
import type { Announcement } from '../../src/merchant-events/announce';
import {
  cancelPayoutUpdate,
  payoutStatusQuery,
  payoutWorkflowId,
  recheckPayoutUpdate,
  settlementOf,
  withdrawalCallbackSignal,
  type PayoutSettlement,
  type PayoutView,
  type PayoutWorkflow,
  PAYOUT_TRANSITIONS,
  type PayoutState,
} from '../../src/contracts/payout';
import { payoutStartAttributes } from '../../src/lifecycles/payout-client';
import { announcementOf } from '../helpers/announcements';
import { ACCEPTED_SUBMISSION } from '../helpers/payouts';
import { startTimeSkipping, withWorker } from '../helpers/time-skipping';

/** The production defaults: a day before review, an hour of failed submissions before review. */
const TIMING = {
  callbackWaitMs: 60_000,
  pollInitialMs: 5_000,
  pollMaxMs: 600_000,
  reviewAfterMs: 86_400_000,
  submitDeadlineMs: 3_600_000,
};

const found = (state: 'PENDING' | 'COMPLETED' | 'FAILED'): CheckOutcome => ({
  kind: 'found',
  transactionId: 'tx-1',
  state,
  providerState: { PENDING: 'PROCESSING', COMPLETED: 'COMPLETO', FAILED: 'FALHA' }[state],
  feeCents: 125,
});

/** What the provider answers, test by test. */
class ScriptedProvider {
  submitted = 0;
  checked = 0;
  readonly reports: PayoutSettlement[] = [];
  readonly settled: PayoutView[] = [];
  /** The merchant events each settlement carried. */
  readonly announced: Announcement[] = [];

  constructor(
    private readonly submit: (attempt: number) => SubmitOutcome,
    private readonly check: () => CheckOutcome = () => ({ kind: 'not-found' }),
  ) {}

  activities(): PayoutActivities {
    return {
      submitWithdrawal: () => {
        this.submitted += 1;
        return Promise.resolve().then(() => this.submit(Context.current().info.attempt));
      },
      checkWithdrawal: () => {
        this.checked += 1;
        return Promise.resolve().then(() => this.check());
      },
      recordBatchOutcome: (_batchId, settlement) => {
        this.reports.push(settlement);
        return Promise.resolve();
      },
      recordPayoutReview: (view) => {
        if (view.batchId) this.reports.push(settlementOf(view));
        return Promise.resolve();
      },
      recordPayoutRow: () => Promise.resolve(),
      settlePayout: (view, announcements) => {
        this.settled.push(view);
        this.announced.push(...announcements);
        if (view.batchId) this.reports.push(settlementOf(view));
        return Promise.resolve();
      },
    };
  }
}

const providerDown = (): never => {
  throw new Error('provider answered 503');
};

let env: TestWorkflowEnvironment;
const walked = new Set<string>();

beforeAll(async () => {
  env = await startTimeSkipping();
});
afterAll(() => env?.teardown());

/** A fresh payout of R$ 25.00 on these tests' timing and this workflow version, to the rail's destination. */
function freshInput<const Rail extends object>(rail: Rail) {
  return {
    externalId: `wf-${randomUUID().slice(0, 8)}`,
    amountCents: 2500,
    requestHash: 'hash',
    timing: TIMING,
    workflowVersion: PAYOUT_WORKFLOW_VERSION,
    ...rail,
  };
}

function payoutInput(overrides: { batchId?: string } = {}): PayoutInput {
  return freshInput({ method: 'pix_key', pixKey: '52998224725', keyType: 'CPF', ...overrides });
}

function internalInput(): PayoutInput {
  return freshInput({ method: 'internal', email: 'recipient@sandbox.test' });
}

/** Starts a payout with a worker serving the scripted provider, runs `body`, records the transitions walked. */
/** `indexed`: started as the engine starts it, with its search attributes in the start request. */
async function withPayout(
  provider: ScriptedProvider,
  body: (handle: WorkflowHandle<PayoutWorkflow>) => Promise<void>,
  input = payoutInput(),
  indexed = false,
): Promise<PayoutView> {
  const taskQueue = `wf-${randomUUID()}`;
  return withWorker(env, taskQueue, provider.activities(), async () => {
    const handle = await env.client.workflow.start<PayoutWorkflow>('payoutWorkflow', {
      taskQueue,
      workflowId: payoutWorkflowId(input.externalId),
      args: [input],
      ...(indexed ? { typedSearchAttributes: payoutStartAttributes(input) } : {}),
    });
    await body(handle);
    const view = await handle.result();
    for (const transition of view.transitions) if (transition.from) walked.add(`${transition.from}->${transition.to}`);
    return view;
  });
}

/**
 * Polls the payout's state. `skipping`: the time-skipping server's clock is moved on by this much before each
 * read, so that retries and timers still ahead (a loaded machine runs them late) fire in skipped time, not real.
 */
function reaches(handle: WorkflowHandle<PayoutWorkflow>, state: PayoutState, skipping?: string): Promise<PayoutView> {
  return pollUntil(
    async () => {
      if (skipping) await env.sleep(skipping);
      const view = await handle.query(payoutStatusQuery);
      return view.state === state ? view : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 50, description: `the payout to reach ${state}` },
  );
}

/** A provider that refuses every submission; its check answers `check.answer`, the withdrawal not found until a test says. */
function downButCheckable(): { provider: ScriptedProvider; check: { answer: CheckOutcome } } {
  const check: { answer: CheckOutcome } = { answer: { kind: 'not-found' } };
  return { provider: new ScriptedProvider(providerDown, () => check.answer), check };
}

/** In review after an hour of failed submissions, the payout is rechecked with the provider's check answering `outcome`: the state the recheck answers. */
async function recheckedFromReview(
  handle: WorkflowHandle<PayoutWorkflow>,
  check: { answer: CheckOutcome },
  outcome: CheckOutcome,
): Promise<PayoutState> {
  await reaches(handle, 'NEEDS_REVIEW', '61 minutes');
  check.answer = outcome;
  return (await handle.executeUpdate(recheckPayoutUpdate)).state;
}

const path = (view: PayoutView): string[] => view.transitions.map((transition) => transition.to);

test('RECEIVED -> SUBMITTED -> COMPLETED: the callback is a hint, the check decides', async () => {
  let settled = false;
  const provider = new ScriptedProvider(
    () => ACCEPTED_SUBMISSION,
    () => found(settled ? 'COMPLETED' : 'PENDING'),
  );
  const view = await withPayout(provider, async (handle) => {
    await reaches(handle, 'SUBMITTED');
    settled = true;
    await handle.signal(withdrawalCallbackSignal, {
      status: 'COMPLETED',
      transactionId: 'tx-1',
      receivedAt: new Date().toISOString(),
    });
  });
  expect(path(view)).toEqual(['RECEIVED', 'SUBMITTED', 'COMPLETED']);
  expect(view).toMatchObject({ feeCents: 125, totalCents: 2625, providerTransactionId: 'tx-1', callbacksReceived: 1 });
  expect(provider.submitted).toBe(1);
  // A payout without a batch is settled too, once, with its final view, and its settlement carries its event.
  expect(provider.settled).toEqual([view]);
  expect(provider.announced).toEqual([
    announcementOf('payout', payoutWorkflowId(view.externalId), view, 2, 'payout.completed', {
      method: 'pix_key',
      status: 'COMPLETED',
      amount: 25,
      fee: 1.25,
      total: 26.25,
      providerTransactionId: 'tx-1',
    }),
  ]);
});

/** The event types of a history, without the EVENT_TYPE_ prefix. */
async function eventTypes(handle: WorkflowHandle<PayoutWorkflow>): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).map((event) =>
    (temporal.api.enums.v1.EventType[event.eventType ?? 0] ?? '').replace(/^EVENT_TYPE_/, ''),
  );
}

/** The search attributes of each upsert in a history, by attribute name. */
async function upserts(handle: WorkflowHandle<PayoutWorkflow>): Promise<string[][]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const fields = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
    return fields ? [Object.keys(fields).sort()] : [];
  });
}

/** One workflow task in a history. */
const WORKFLOW_TASK = ['WORKFLOW_TASK_SCHEDULED', 'WORKFLOW_TASK_STARTED', 'WORKFLOW_TASK_COMPLETED'];
/** From the callback wait to the end: the signal wakes the payout, whose check (a local activity) completes it. */
const CALLBACK_TO_COMPLETION = [
  'TIMER_STARTED',
  'WORKFLOW_EXECUTION_SIGNALED',
  ...WORKFLOW_TASK,
  'TIMER_CANCELED',
  'MARKER_RECORDED',
  'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES',
  'MARKER_RECORDED',
  'WORKFLOW_EXECUTION_COMPLETED',
];

/** Runs a PIX-key payout that completes by callback, started as the engine starts it; its event types and upserts. */
async function callbackPayoutHistory(input: PayoutInput): Promise<{ events: string[]; upserted: string[][] }> {
  let settled = false;
  const provider = new ScriptedProvider(
    () => ACCEPTED_SUBMISSION,
    () => found(settled ? 'COMPLETED' : 'PENDING'),
  );
  let events: string[] = [];
  let upserted: string[][] = [];
  await withPayout(
    provider,
    async (handle) => {
      // Read from the history, not by a query: the test server answers a query with a workflow task of its own.
      await pollUntil(async () => ((await eventTypes(handle)).includes('TIMER_STARTED') ? true : undefined), {
        timeoutMs: 10_000,
        intervalMs: 50,
        description: 'the callback wait',
      });
      settled = true;
      await handle.signal(withdrawalCallbackSignal, {
        status: 'COMPLETED',
        transactionId: 'tx-1',
        receivedAt: new Date().toISOString(),
      });
      await handle.result();
      events = await eventTypes(handle);
      upserted = await upserts(handle);
    },
    input,
    true,
  );
  return { events, upserted };
}

// The same payout completed by callback, on the current path and on the paths older versions were recorded on: they
// differ only in what the submission writes before the callback wait, and in what gets indexed.
test.each([
  {
    name: 'a payout completed by callback costs 15 events and 2 workflow tasks: provider calls are local activities, SUBMITTED not indexed, the provider id indexed with the final state',
    input: () => payoutInput(),
    submission: ['MARKER_RECORDED'],
    eventCount: 15,
    upserted: [['PayoutStatus', 'ProviderTransactionId']],
  },
  {
    name: 'a payout of version 4 keeps its path: the provider id indexed with SUBMITTED (16 events)',
    input: () => ({ ...payoutInput(), workflowVersion: 4 as const }),
    submission: ['MARKER_RECORDED', 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES'],
    eventCount: 16,
    upserted: [['PayoutStatus', 'ProviderTransactionId'], ['PayoutStatus']],
  },
  {
    name: 'a payout of version 2 keeps its path: the provider id indexed on its own behind the patch (19 events)',
    input: () => ({ ...payoutInput(), workflowVersion: 2 as const }),
    submission: [
      'MARKER_RECORDED',
      'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES',
      'MARKER_RECORDED',
      'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES',
      'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES',
    ],
    eventCount: 19,
    // The patch's marker comes with the SDK's TemporalChangeVersion upsert.
    upserted: [['PayoutStatus'], ['TemporalChangeVersion'], ['ProviderTransactionId'], ['PayoutStatus']],
  },
])('$name', async ({ input, submission, eventCount, upserted }) => {
  const history = await callbackPayoutHistory(input());
  expect(history.events).toEqual([
    'WORKFLOW_EXECUTION_STARTED',
    ...WORKFLOW_TASK,
    ...submission,
    ...CALLBACK_TO_COMPLETION,
  ]);
  expect(history.events).toHaveLength(eventCount);
  expect(history.upserted).toEqual(upserted);
});

test('a payout the provider still reports pending at its first look is indexed SUBMITTED then, with its provider id: operators find payouts stuck at the provider', async () => {
  let looks = 0;
  let settled = false;
  const provider = new ScriptedProvider(
    () => ACCEPTED_SUBMISSION,
    () => {
      looks += 1;
      return found(settled ? 'COMPLETED' : 'PENDING');
    },
  );
  let upsertedWhilePending: string[][] = [];
  let upserted: string[][] = [];
  const view = await withPayout(
    provider,
    async (handle) => {
      // The callback wait (60 s) passes in skipped time; the first look finds it pending.
      upsertedWhilePending = await pollUntil(
        async () => {
          await env.sleep('30 seconds');
          const written = looks >= 1 ? await upserts(handle) : [];
          return written.length > 0 ? written : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 50, description: 'an upsert after the first look' },
      );
      settled = true;
      await reaches(handle, 'COMPLETED', '1 minute');
      upserted = await upserts(handle);
    },
    payoutInput(),
    true,
  );
  expect(path(view)).toEqual(['RECEIVED', 'SUBMITTED', 'COMPLETED']);
  expect(upsertedWhilePending).toEqual([['PayoutStatus', 'ProviderTransactionId']]);
  expect(upserted).toEqual([['PayoutStatus', 'ProviderTransactionId'], ['PayoutStatus']]);
});

test('an input without a version (started before version 2) keeps the remote-activity path it was recorded on', async () => {
  const provider = new ScriptedProvider(
    () => ({ ...ACCEPTED_SUBMISSION, providerStatus: 'COMPLETO' }),
    () => found('COMPLETED'),
  );
  const { workflowVersion: _version, ...before } = payoutInput({ batchId: 'batch-1' });
  let events: string[] = [];
  const view = await withPayout(
    provider,
    async (handle) => {
      await handle.result();
      events = await eventTypes(handle);
    },
    before,
  );
  expect(view.state).toBe('COMPLETED');
  expect(events.filter((type) => type === 'ACTIVITY_TASK_SCHEDULED')).toHaveLength(2);
  // The batch hears of it through recordBatchOutcome; settlePayout is version 2's.
  expect(provider.reports.map((report) => report.state)).toEqual(['COMPLETED']);
  expect(provider.settled).toEqual([]);
  // Such payouts announced nothing, and still do not: no settlement carries their events.
  expect(provider.announced).toEqual([]);
});

test('RECEIVED -> FAILED: the provider refuses the request, with its reason', async () => {
  const provider = new ScriptedProvider(() => ({
    kind: 'rejected',
    reason: 'Insufficient balance for this operation (amount plus fee)',
  }));
  const view = await withPayout(provider, () => Promise.resolve());
  expect(path(view)).toEqual(['RECEIVED', 'FAILED']);
  expect(view.failureReason).toMatch(/Insufficient balance/);
  expect(provider.checked).toBe(0);
});

test('SUBMITTED -> FAILED: the check confirms the failure the callback announced', async () => {
  const provider = new ScriptedProvider(
    () => ACCEPTED_SUBMISSION,
    () => found('FAILED'),
  );
  const view = await withPayout(provider, async (handle) => {
    await reaches(handle, 'SUBMITTED');
    await handle.signal(withdrawalCallbackSignal, {
      status: 'FAILED',
      reason: 'recipient account closed',
      receivedAt: new Date().toISOString(),
    });
  });
  expect(path(view)).toEqual(['RECEIVED', 'SUBMITTED', 'FAILED']);
  expect(view.failureReason).toBe('recipient account closed');
  expect(provider.announced).toEqual([
    expect.objectContaining({
      seq: 2,
      type: 'payout.failed',
      data: expect.objectContaining({ status: 'FAILED', failureReason: 'recipient account closed' }),
    }),
  ]);
});

test('RECEIVED -> CANCELLED: two concurrent cancels of a retrying submission both get the answer', async () => {
  const provider = new ScriptedProvider(providerDown);
  const answers: unknown[] = [];
  const view = await withPayout(provider, async (handle) => {
    await pollUntil(() => (provider.submitted > 0 ? true : undefined), {
      timeoutMs: 10_000,
      intervalMs: 20,
      description: 'a submission attempt',
    });
    answers.push(
      ...(await Promise.all([
        handle.executeUpdate(cancelPayoutUpdate, { args: [{ reason: 'first' }] }),
        handle.executeUpdate(cancelPayoutUpdate, { args: [{ reason: 'second' }] }),
      ])),
    );
  });
  expect(path(view)).toEqual(['RECEIVED', 'CANCELLED']);
  expect(answers).toEqual([expect.objectContaining({ cancelled: true }), expect.objectContaining({ cancelled: true })]);
  expect(view.transitions.at(-1)?.cause).toMatch(/^cancelled by operator: (first|second)$/);
});

test('RECEIVED -> NEEDS_REVIEW -> CANCELLED: submission fails for an hour, then an operator cancels what the provider never got', async () => {
  const provider = new ScriptedProvider(providerDown);
  const view = await withPayout(provider, async (handle) => {
    const review = await reaches(handle, 'NEEDS_REVIEW', '61 minutes');
    expect(review.reviewReason).toMatch(/submission did not succeed/);
    const answer = await handle.executeUpdate(cancelPayoutUpdate, { args: [{ reason: 'merchant gave up' }] });
    expect(answer.cancelled).toBe(true);
  });
  expect(path(view)).toEqual(['RECEIVED', 'NEEDS_REVIEW', 'CANCELLED']);
  // Only the final state is announced: the review on the way is no event.
  expect(provider.announced).toEqual([
    expect.objectContaining({ seq: 2, type: 'payout.cancelled', occurredAt: view.transitions[2]?.at }),
  ]);
});

test('RECEIVED -> NEEDS_REVIEW -> COMPLETED: a submission that failed on our side but reached the provider is found on recheck', async () => {
  const { provider, check } = downButCheckable();
  const view = await withPayout(provider, async (handle) => {
    expect(await recheckedFromReview(handle, check, found('COMPLETED'))).toBe('COMPLETED');
  });
  expect(path(view)).toEqual(['RECEIVED', 'NEEDS_REVIEW', 'COMPLETED']);
});

test('NEEDS_REVIEW -> SUBMITTED: found still settling on recheck, the payout waits for its outcome again', async () => {
  const { provider, check } = downButCheckable();
  const view = await withPayout(provider, async (handle) => {
    expect(await recheckedFromReview(handle, check, found('PENDING'))).toBe('SUBMITTED');
    check.answer = found('COMPLETED');
    await handle.signal(withdrawalCallbackSignal, { status: 'COMPLETED', receivedAt: new Date().toISOString() });
  });
  expect(path(view)).toEqual(['RECEIVED', 'NEEDS_REVIEW', 'SUBMITTED', 'COMPLETED']);
});

test('RECEIVED -> NEEDS_REVIEW: the provider holds a different withdrawal under this external_id', async () => {
  const provider = new ScriptedProvider(() => {
    throw ApplicationFailure.nonRetryable('external_id already used with a different body', 'Conflict');
  });
  const view = await withPayout(provider, async (handle) => {
    await reaches(handle, 'NEEDS_REVIEW');
    await handle.executeUpdate(cancelPayoutUpdate, { args: [{ reason: 'duplicate id' }] });
  });
  expect(view.transitions[1]).toMatchObject({
    to: 'NEEDS_REVIEW',
    cause: 'provider holds a different withdrawal with this external_id',
  });
  expect(provider.submitted).toBe(1);
});

test('SUBMITTED -> NEEDS_REVIEW after a day without an outcome (skipped time); a late callback then settles it FAILED', async () => {
  let answer = found('PENDING');
  const provider = new ScriptedProvider(
    () => ACCEPTED_SUBMISSION,
    () => answer,
  );
  const view = await withPayout(
    provider,
    async (handle) => {
      const review = await reaches(handle, 'NEEDS_REVIEW', '25 hours');
      expect(review.reviewReason).toBe('no confirmed outcome before the review deadline');
      // Polled with backoff (5 s doubling to 10 min), not every few seconds for a day.
      expect(review.checksMade).toBeLessThan(200);
      answer = found('FAILED');
      await handle.signal(withdrawalCallbackSignal, {
        status: 'FAILED',
        reason: 'returned by the recipient bank',
        receivedAt: new Date().toISOString(),
      });
    },
    payoutInput({ batchId: 'batch-1' }),
  );
  expect(path(view)).toEqual(['RECEIVED', 'SUBMITTED', 'NEEDS_REVIEW', 'FAILED']);
  expect(view.failureReason).toBe('returned by the recipient bank');
  // The batch hears of the review and of the final outcome.
  expect(provider.reports.map((report) => report.state)).toEqual(['NEEDS_REVIEW', 'FAILED']);
});

test('a recheck sent while the payout is RECEIVED is refused at once (it is being submitted), nothing written to its history', async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const provider = new ScriptedProvider(() => ({
    kind: 'rejected',
    reason: 'Insufficient balance for this operation (amount plus fee)',
  }));
  const activities = provider.activities();
  const slowSubmit = {
    ...activities,
    submitWithdrawal: async (input: PayoutInput) => (await gate, activities.submitWithdrawal(input)),
  };
  const taskQueue = `wf-${randomUUID()}`;
  // A remote submission (an internal transfer's): the workflow task is free to take the update while it runs.
  const input = internalInput();
  const view = await withWorker(env, taskQueue, slowSubmit, async () => {
    const handle = await env.client.workflow.start<PayoutWorkflow>('payoutWorkflow', {
      taskQueue,
      workflowId: payoutWorkflowId(input.externalId),
      args: [input],
    });
    await pollUntil(async () => ((await handle.query(payoutStatusQuery)).state === 'RECEIVED' ? true : undefined), {
      timeoutMs: 10_000,
      intervalMs: 20,
      description: 'the payout to start',
    });
    const refusal = await handle.executeUpdate(recheckPayoutUpdate).catch((error: unknown) => error);
    release();
    expect(refusal).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((refusal as WorkflowUpdateFailedError).cause?.message).toBe(
      'the payout is still being submitted to the provider',
    );
    const history = await handle.fetchHistory();
    expect(
      history.events?.some(
        (event) => event.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
      ),
    ).toBe(false);
    return handle.result();
  });
  expect(path(view)).toEqual(['RECEIVED', 'FAILED']);
});

test('a cancel once the payout is at the provider is refused by the validator, and nothing is written to its history', async () => {
  let answer = found('PENDING');
  const provider = new ScriptedProvider(
    () => ACCEPTED_SUBMISSION,
    () => answer,
  );
  const view = await withPayout(provider, async (handle) => {
    await reaches(handle, 'SUBMITTED');
    const refusal = await handle
      .executeUpdate(cancelPayoutUpdate, { args: [{ reason: 'too late' }] })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((refusal as WorkflowUpdateFailedError).cause?.message).toBe(
      'the payout was already submitted to the provider',
    );
    const history = await handle.fetchHistory();
    expect(history.events?.some((event) => event.workflowExecutionUpdateAcceptedEventAttributes)).toBe(false);
    answer = found('COMPLETED');
    await handle.signal(withdrawalCallbackSignal, { status: 'COMPLETED', receivedAt: new Date().toISOString() });
  });
  expect(view.state).toBe('COMPLETED');
});

test('an internal transfer whose answer was lost waits for an operator, who may cancel it on their own word', async () => {
  const provider = new ScriptedProvider(
    () => ({ kind: 'unknown', reason: 'the transfer may have been made: no answer within 10000 ms' }),
    () => ({ kind: 'unknowable', reason: 'the provider never answered its id for this transfer' }),
  );
  const view = await withPayout(
    provider,
    async (handle) => {
      const review = await reaches(handle, 'NEEDS_REVIEW');
      expect(review.reviewReason).toMatch(/may have been made/);
      const answer = await handle.executeUpdate(cancelPayoutUpdate, {
        args: [{ reason: 'statement shows no transfer' }],
      });
      expect(answer.cancelled).toBe(true);
      // Not resendable (the provider cannot be asked for it by our id): submitted by a server-counted activity, never locally.
      expect(await eventTypes(handle)).toContain('ACTIVITY_TASK_SCHEDULED');
    },
    internalInput(),
  );
  expect(path(view)).toEqual(['RECEIVED', 'NEEDS_REVIEW', 'CANCELLED']);
  expect(view.transitions.at(-1)?.cause).toMatch(/cannot be asked/);
  expect(provider.submitted).toBe(1);
});

test('the tests above walk every transition of the state table', () => {
  const table = Object.entries(PAYOUT_TRANSITIONS).flatMap(([from, targets]) => targets.map((to) => `${from}->${to}`));
  expect([...walked].sort()).toEqual(expect.arrayContaining(table.sort()));
  expect(table.filter((transition) => !walked.has(transition))).toEqual([]);
});
