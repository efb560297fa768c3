/**
 * The charge workflow alone, on the time-skipping test server with stubbed activities: what the real
 * stack cannot show in seconds (a late-payment window of a day, a refund window of months) and the
 * provider's refusals, each answered to the merchant's update-with-start.
 */
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ChargeActivities, ChargeCheck, CreatedCharge } from '../../activities/charge-activities';
import { chargeRequestHash, type ChargeRequest } from '../../src/charges/charge-request';
import { buildBrCode } from '../../src/pix/brcode';
import {
  chargeWorkflowId,
  createChargeUpdate,
  infractionAcceptedSignal,
  type ChargeView,
  type ChargeWorkflow,
} from '../../src/contracts/charge';
import type { ChargeInput } from '../../src/charges/charge-input';
import { startTimeSkipping, withWorker } from '../helpers/time-skipping';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
});
afterAll(() => env?.teardown());

function input(overrides: Partial<ChargeRequest> = {}): ChargeInput {
  const request: ChargeRequest = {
    externalId: `c${randomUUID().slice(0, 8)}`,
    amountCents: 10_000,
    payer: { name: 'Ana', document: '52998224725' },
    expiresInSeconds: 3_600,
    ...overrides,
  };
  return {
    request,
    requestHash: chargeRequestHash(request),
    endpoint: 'transactions',
    timing: {
      callbackWaitMs: 60_000,
      pollInitialMs: 5_000,
      pollMaxMs: 600_000,
      latePaymentWindowMs: DAY,
      refundWindowMs: 90 * DAY,
    },
  };
}

const code = (amountCentavos: number) =>
  buildBrCode({
    pixKey: 'loja@example.com',
    merchantName: 'Loja',
    merchantCity: 'SAO PAULO',
    txid: 'T1',
    amountCentavos,
  });

function stub(
  create: () => Promise<CreatedCharge>,
  check: () => ChargeCheck = () => ({ kind: 'pending' }),
): ChargeActivities & { checks: number } {
  const activities = {
    checks: 0,
    createCharge: create,
    checkCharge: () => {
      activities.checks += 1;
      return Promise.resolve(check());
    },
  };
  return activities;
}

async function run(
  activities: ChargeActivities,
  chargeInput: ChargeInput,
  body: (created: ChargeView, handle: WorkflowHandle<ChargeWorkflow>) => Promise<void> = () => Promise.resolve(),
): Promise<ChargeView> {
  const taskQueue = `charge-${randomUUID()}`;
  return withWorker(env, taskQueue, activities, async () => {
    const start = new WithStartWorkflowOperation<ChargeWorkflow>('chargeWorkflow', {
      workflowId: chargeWorkflowId(chargeInput.request.externalId),
      taskQueue,
      args: [chargeInput],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    const created = await env.client.workflow.executeUpdateWithStart(createChargeUpdate, {
      args: [chargeInput.requestHash],
      startWorkflowOperation: start,
    });
    const handle = await start.workflowHandle();
    await body(created, handle);
    return handle.result();
  });
}

test("the provider refusing the charge ends it FAILED, and the merchant's update is answered with the reason", async () => {
  const activities = stub(() => Promise.resolve({ kind: 'refused', reason: 'payerDocument is invalid' }));
  const view = await run(activities, input(), (created) => {
    expect(created).toMatchObject({
      state: 'FAILED',
      failureReason: expect.stringContaining('payerDocument is invalid'),
    });
    return Promise.resolve();
  });
  expect(view.state).toBe('FAILED');
  expect(activities.checks).toBe(0);
});

test("a code that fails the engine's check is never handed out: FAILED at once, not retried", async () => {
  let attempts = 0;
  const activities = stub(() => {
    attempts += 1;
    return Promise.reject(
      ApplicationFailure.nonRetryable("the provider's code failed the engine's check: CRC mismatch", 'BadChargeCode'),
    );
  });
  const view = await run(activities, input());
  expect(view).toMatchObject({ state: 'FAILED', failureReason: expect.stringContaining('CRC mismatch') });
  expect(view.qrcode).toBeUndefined();
  expect(attempts).toBe(1);
});

test("a different request under the same externalId is refused by the update's validator; the charge goes on", async () => {
  const chargeInput = input();
  const activities = stub(
    () => Promise.resolve({ kind: 'created', qrcode: code(10_000) }),
    () => ({ kind: 'paid', providerTransactionId: 'ci_1', feeCents: 100, at: new Date().toISOString() }),
  );
  const view = await run(activities, chargeInput, async (_created, handle) => {
    await expect(handle.executeUpdate(createChargeUpdate, { args: ['another-hash'] })).rejects.toBeInstanceOf(
      WorkflowUpdateFailedError,
    );
    await handle.signal(infractionAcceptedSignal, { infractionId: 'med_1', amountCents: 10_000 });
  });
  expect(view.state).toBe('REFUNDED');
});

test('unpaid: EXPIRED at expiresAt; nothing arrives in the late-payment window; it closes EXPIRED a day later', async () => {
  const activities = stub(() => Promise.resolve({ kind: 'created', qrcode: code(10_000) }));
  const startedAt = await env.currentTimeMs();
  const view = await run(activities, input({ expiresInSeconds: 600 }));
  expect(view.transitions.map((transition) => transition.to)).toEqual(['PENDING', 'EXPIRED']);
  expect(Date.parse(view.transitions[1]?.at ?? '') - startedAt).toBeGreaterThanOrEqual(600_000);
  expect((await env.currentTimeMs()) - startedAt).toBeGreaterThanOrEqual(DAY);
  // Polled with backoff, not hammered: a day at a 10-minute ceiling is under 200 checks.
  expect(activities.checks).toBeLessThan(200);
});

test("the provider's expiry comes first: the charge expires with it", async () => {
  const activities = stub(() =>
    Promise.resolve({
      kind: 'created',
      qrcode: code(10_000),
      providerExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    }),
  );
  const view = await run(activities, input({ expiresInSeconds: 3_600 }), (created) => {
    expect(Date.parse(created.expiresAt ?? '')).toBeLessThanOrEqual(Date.now() + 3_600_000);
    return Promise.resolve();
  });
  expect(view.state).toBe('EXPIRED');
});

test('paid: it listens for accepted infractions (one counted once, even signalled twice) until its refund window closes', async () => {
  const activities = stub(
    () => Promise.resolve({ kind: 'created', qrcode: code(10_000) }),
    () => ({ kind: 'paid', providerTransactionId: 'ci_2', feeCents: 100, at: new Date().toISOString() }),
  );
  const startedAt = await env.currentTimeMs();
  const view = await run(activities, input(), async (_created, handle) => {
    await handle.signal(infractionAcceptedSignal, { infractionId: 'med_a', amountCents: 2_500 });
    await handle.signal(infractionAcceptedSignal, { infractionId: 'med_a', amountCents: 2_500 });
  });
  expect(view.state).toBe('PARTIALLY_REFUNDED');
  expect(view.refunds.map((refund) => refund.amountCents)).toEqual([2_500]);
  expect(view).toMatchObject({ feeCents: 100, providerTransactionId: 'ci_2' });
  expect((await env.currentTimeMs()) - startedAt).toBeGreaterThanOrEqual(90 * DAY);
});
