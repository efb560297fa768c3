/**
 * The infraction workflow alone, on the time-skipping test server with stubbed activities: the deadline
 * timers over days of skipped time (DUE_SOON a day before, DEADLINE_MISSED when it passes), the defense
 * update and its refusals, and the refund told to the linked charge when the claim is accepted.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { DefenseAnswer, InfractionActivities } from '../../activities/infraction-activities';
import type { MerchantEventActivities } from '../../activities/merchant-event-activities';
import type { AcceptedInfraction } from '../../src/infractions/charge-refunds';
import type { Announcement } from '../../src/merchant-events/announce';
import type { InfractionRecord } from '../../src/infractions/infraction-record';
import { pollUntil } from '../../src/util/poll';
import {
  defendInfractionUpdate,
  infractionRecordSignal,
  infractionStatusQuery,
  infractionWorkflowId,
  type InfractionView,
  type InfractionWorkflow,
  type InfractionState,
} from '../../src/contracts/infraction';
import { defenseUpdateAnswer } from '../helpers/infractions';
import { startTimeSkipping, withWorker } from '../helpers/time-skipping';

const DAY = 24 * 3_600_000;
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
});
afterAll(() => env?.teardown());

/** Created now in the test server's time, which the tests before have moved days ahead. */
/** The provider's record once it has judged the defense and rejected the claim. */
const rejected = (initial: InfractionRecord): InfractionRecord => ({
  ...initial,
  providerStatus: 'REJECTED',
  analise: 'NEGADA',
  resolvedAt: new Date().toISOString(),
});

async function record(overrides: Partial<InfractionRecord> = {}): Promise<InfractionRecord> {
  const createdAt = new Date(await env.currentTimeMs());
  return {
    infractionId: `med_${randomUUID().slice(0, 8)}`,
    transactionId: 'ci_abc',
    providerStatus: 'WAITING_PSP',
    reason: 'fraud',
    amountCents: 8_000,
    createdAt: createdAt.toISOString(),
    defenseDeadline: new Date(createdAt.getTime() + 2 * DAY).toISOString(),
    ...overrides,
  };
}

class StubbedProvider {
  readonly refunds: { chargeExternalId: string; infraction: AcceptedInfraction }[] = [];
  /** Every defense the workflow sent. */
  readonly defensesSent: unknown[] = [];
  /** While set, a defense sent waits for it: the provider's answer is in flight. */
  hold: Promise<void> | undefined;
  /** What the workflow announced to the merchant's endpoints. */
  readonly announced: Announcement[] = [];
  constructor(
    private readonly charge: string | null,
    private readonly defense: (record: InfractionRecord) => DefenseAnswer = (current) => ({
      kind: 'submitted',
      record: { ...current, defendedAt: new Date().toISOString() },
    }),
  ) {}

  activities(current: () => InfractionRecord): InfractionActivities & Pick<MerchantEventActivities, 'announceEvent'> {
    return {
      announceEvent: (announcement) => {
        this.announced.push(announcement);
        return Promise.resolve({});
      },
      syncInfractionPage: () => Promise.reject(new Error('not used')),
      submitDefense: async (_infractionId, sent) => {
        this.defensesSent.push(sent);
        await this.hold;
        return this.defense(current());
      },
      findCharge: () => Promise.resolve(this.charge),
      recordRefundOnCharge: (chargeExternalId, infraction) => {
        this.refunds.push({ chargeExternalId, infraction });
        return Promise.resolve(true);
      },
    };
  }
}

async function withInfraction(
  provider: StubbedProvider,
  initial: InfractionRecord,
  body: (handle: WorkflowHandle<InfractionWorkflow>) => Promise<void>,
  input: { dueSoonLeadMs?: number } = {},
): Promise<InfractionView> {
  const taskQueue = `infraction-${randomUUID()}`;
  return withWorker(
    env,
    taskQueue,
    provider.activities(() => initial),
    async () => {
      const handle = await env.client.workflow.start<InfractionWorkflow>('infractionWorkflow', {
        taskQueue,
        workflowId: infractionWorkflowId(initial.infractionId),
        args: [{ record: initial, ...input }],
      });
      await body(handle);
      return handle.result();
    },
  );
}

function reaches(handle: WorkflowHandle<InfractionWorkflow>, state: InfractionState): Promise<InfractionView> {
  return pollUntil(
    async () => {
      const view = await handle.query(infractionStatusQuery);
      return view.state === state ? view : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 50, description: `the infraction to reach ${state}` },
  );
}

const path = (view: InfractionView) => view.transitions.map((transition) => transition.to);
const defense = { analise: 'NEGADA' as const, justificativa: 'Entrega comprovada', proofs: [] };

/** Once the infraction is OPEN, the merchant's defense: what the update answers. */
async function defendOnceOpen(handle: WorkflowHandle<InfractionWorkflow>) {
  await reaches(handle, 'OPEN');
  return handle.executeUpdate(defendInfractionUpdate, { args: [defense] });
}

test('no defense: DUE_SOON a day before the deadline, DEADLINE_MISSED when it passes, then ACCEPTED tells the linked charge', async () => {
  const provider = new StubbedProvider('order-42');
  const initial = await record();
  const view = await withInfraction(provider, initial, async (handle) => {
    await reaches(handle, 'OPEN');
    await env.sleep(DAY + 3_600_000);
    await reaches(handle, 'DUE_SOON');
    await env.sleep(DAY);
    const missed = await reaches(handle, 'DEADLINE_MISSED');
    expect(missed.chargeExternalId).toBe('order-42');
    const refused = await defenseUpdateAnswer(handle, defense);
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    await handle.signal(infractionRecordSignal, {
      ...initial,
      providerStatus: 'ACCEPTED',
      resolvedAt: new Date().toISOString(),
    });
  });
  expect(path(view)).toEqual(['OPEN', 'DUE_SOON', 'DEADLINE_MISSED', 'ACCEPTED']);
  expect(provider.refunds).toEqual([
    { chargeExternalId: 'order-42', infraction: { infractionId: initial.infractionId, amountCents: 8_000 } },
  ]);
  expect(view.refundRecordedAt).toBeTruthy();
  const sourceId = infractionWorkflowId(initial.infractionId);
  const about = {
    object: 'infraction',
    infractionId: initial.infractionId,
    amount: 80,
    providerTransactionId: 'ci_abc',
    defenseDeadline: initial.defenseDeadline,
    chargeExternalId: 'order-42',
  };
  expect(provider.announced).toEqual([
    {
      sourceId,
      seq: 0,
      type: 'infraction.opened',
      occurredAt: view.transitions[0]?.at,
      data: { ...about, status: 'OPEN' },
    },
    {
      sourceId,
      seq: 1,
      type: 'infraction.due_soon',
      occurredAt: view.transitions[1]?.at,
      data: { ...about, status: 'DUE_SOON' },
    },
    {
      sourceId,
      seq: 3,
      type: 'infraction.accepted',
      occurredAt: view.transitions[3]?.at,
      data: { ...about, status: 'ACCEPTED' },
    },
  ]);
  // Due soon by the workflow's own timer: a day before the deadline (the default lead time).
  expect(
    Date.parse(view.transitions[1]?.at ?? '') - (Date.parse(initial.defenseDeadline) - DAY),
  ).toBeGreaterThanOrEqual(0);
  expect(Date.parse(view.transitions[1]?.at ?? '') - (Date.parse(initial.defenseDeadline) - DAY)).toBeLessThan(60_000);
});

test("the lead time comes with the infraction's input: DUE_SOON (announced once) that long before the deadline", async () => {
  const provider = new StubbedProvider(null);
  const initial = await record({ defenseDeadline: new Date((await env.currentTimeMs()) + 5 * DAY).toISOString() });
  const leadMs = 3 * DAY;
  const view = await withInfraction(
    provider,
    initial,
    async (handle) => {
      await reaches(handle, 'OPEN');
      await env.sleep(DAY + 3_600_000);
      expect((await handle.query(infractionStatusQuery)).state).toBe('OPEN');
      await env.sleep(DAY);
      const due = await reaches(handle, 'DUE_SOON');
      const dueAt = Date.parse(due.transitions[1]?.at ?? '') - (Date.parse(initial.defenseDeadline) - leadMs);
      expect(dueAt).toBeGreaterThanOrEqual(0);
      expect(dueAt).toBeLessThan(60_000);
      expect(due.transitions[1]?.cause).toBe('the defense is due within 3 days');
      await env.sleep(4 * DAY);
      await handle.signal(infractionRecordSignal, { ...initial, providerStatus: 'CANCELLED' });
    },
    { dueSoonLeadMs: leadMs },
  );
  expect(path(view)).toEqual(['OPEN', 'DUE_SOON', 'DEADLINE_MISSED', 'CANCELLED']);
  expect(provider.announced.map((announcement) => announcement.type)).toEqual([
    'infraction.opened',
    'infraction.due_soon',
    'infraction.cancelled',
  ]);
});

test('a defense is answered once the provider took it; a second one is refused; REJECTED tells no charge', async () => {
  const provider = new StubbedProvider(null);
  const initial = await record();
  const view = await withInfraction(provider, initial, async (handle) => {
    expect(await defendOnceOpen(handle)).toMatchObject({
      submitted: true,
      view: { state: 'DEFENSE_SUBMITTED', defense: { analise: 'NEGADA' } },
    });
    const second = await defenseUpdateAnswer(handle, { ...defense, analise: 'ACEITA' });
    expect((second as WorkflowUpdateFailedError).cause?.message).toMatch(/no longer be defended|already sent/);
    // The deadline no longer matters once a defense is in.
    await env.sleep(3 * DAY);
    expect((await handle.query(infractionStatusQuery)).state).toBe('DEFENSE_SUBMITTED');
    await handle.signal(infractionRecordSignal, rejected(initial));
  });
  expect(path(view)).toEqual(['OPEN', 'DEFENSE_SUBMITTED', 'REJECTED']);
  expect(view.chargeExternalId).toBeNull();
  expect(provider.refunds).toEqual([]);
});

test("a defense the provider refuses is answered with its reason and leaves the infraction open; the provider's own record then decides", async () => {
  const provider = new StubbedProvider(null, () => ({
    kind: 'refused',
    reason: 'Infraction is past its defense deadline',
  }));
  const initial = await record();
  const view = await withInfraction(provider, initial, async (handle) => {
    expect(await defendOnceOpen(handle)).toMatchObject({
      submitted: false,
      reason: 'Infraction is past its defense deadline',
      view: { state: 'OPEN' },
    });
    await handle.signal(infractionRecordSignal, { ...initial, defendedAt: new Date().toISOString() });
    await reaches(handle, 'DEFENSE_SUBMITTED');
    await handle.signal(infractionRecordSignal, { ...initial, providerStatus: 'CANCELLED' });
  });
  expect(path(view)).toEqual(['OPEN', 'DEFENSE_SUBMITTED', 'CANCELLED']);
});

test('while the first defense is with the provider, a different one is refused and the same one waits for its answer; neither is sent', async () => {
  const provider = new StubbedProvider(null);
  let answer = (): void => undefined;
  provider.hold = new Promise((resolve) => (answer = resolve));
  const initial = await record();
  const view = await withInfraction(provider, initial, async (handle) => {
    await reaches(handle, 'OPEN');
    const first = await handle.startUpdate(defendInfractionUpdate, { args: [defense], waitForStage: 'ACCEPTED' });
    await pollUntil(() => (provider.defensesSent.length === 1 ? true : undefined), {
      timeoutMs: 10_000,
      intervalMs: 20,
      description: 'the first defense to be with the provider',
    });

    const different = await defenseUpdateAnswer(handle, { ...defense, analise: 'ACEITA' });
    expect(different).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((different as WorkflowUpdateFailedError).cause?.message).toBe(
      'a different defense was already sent for this infraction',
    );
    const same = await handle.startUpdate(defendInfractionUpdate, { args: [defense], waitForStage: 'ACCEPTED' });

    answer();
    const [firstOutcome, sameOutcome] = await Promise.all([first.result(), same.result()]);
    expect(firstOutcome).toMatchObject({
      submitted: true,
      view: { state: 'DEFENSE_SUBMITTED', defense: { analise: 'NEGADA' } },
    });
    expect(sameOutcome).toEqual(firstOutcome);

    // After the answer: the same defense gets it again, a different one is still refused.
    expect(await handle.executeUpdate(defendInfractionUpdate, { args: [defense] })).toMatchObject({
      submitted: true,
      view: { state: 'DEFENSE_SUBMITTED' },
    });
    const late = await defenseUpdateAnswer(handle, { ...defense, justificativa: 'outra' });
    expect((late as WorkflowUpdateFailedError).cause?.message).toBe(
      'the infraction is DEFENSE_SUBMITTED: it can no longer be defended',
    );
    await handle.signal(infractionRecordSignal, rejected(initial));
  });
  expect(path(view)).toEqual(['OPEN', 'DEFENSE_SUBMITTED', 'REJECTED']);
  expect(provider.defensesSent).toEqual([defense]);
});

test('two different defenses in the same moment: one is sent, the other refused', async () => {
  const provider = new StubbedProvider(null);
  const initial = await record();
  await withInfraction(provider, initial, async (handle) => {
    await reaches(handle, 'OPEN');
    const outcomes = await Promise.allSettled([
      handle.executeUpdate(defendInfractionUpdate, { args: [defense] }),
      handle.executeUpdate(defendInfractionUpdate, { args: [{ ...defense, analise: 'ACEITA' }] }),
    ]);
    const sent = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ value: { submitted: true } });
    expect(refused.map((outcome) => (outcome.reason as WorkflowUpdateFailedError).cause?.message)).toEqual([
      'a different defense was already sent for this infraction',
    ]);
    await handle.signal(infractionRecordSignal, { ...initial, providerStatus: 'CANCELLED' });
  });
  expect(provider.defensesSent).toHaveLength(1);
});
