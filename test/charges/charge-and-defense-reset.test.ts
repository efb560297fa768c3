/**
 * Resets of the lifecycles that create something at the provider besides payouts: a charge (creation
 * claims its intent; the run a reset makes answers the code the first run was given) and an infraction's
 * defense (claimed, looked up at the provider before anything is sent again). The engine reaches the
 * sandbox through a recording proxy: the requests counted are those the engine sent, so the count does
 * not lean on the sandbox's own de-duplication of cash-ins.
 */
import { randomBytes } from 'node:crypto';
import type { ChargeResponse } from '../../src/api/charges/schemas';
import { engineDatabasePath } from '../../src/db/database';
import { openSqlite } from '../../src/db/sqlite';
import type { InfractionResponse } from '../../src/api/infractions/schemas';
import { pollUntil } from '../../src/util/poll';
import { chargeWorkflowId } from '../../src/contracts/charge';
import { infractionWorkflowId } from '../../src/contracts/infraction';
import { startEngineHarness } from '../helpers/engine-harness';
import { DEFENSE, openInfractionSynced } from '../helpers/infractions';
import { createCharge, loseNextChargeCreationAnswer, operationsOf, payCashIn, waitForCharge } from '../helpers/charges';
import { answeredCode } from '../helpers/provider-charges';
import { recordHistory } from '../helpers/record-history';
import {
  describePoint,
  nthResettableTask,
  resetAndWait,
  resetWorkflow,
  resettableWorkflowTasks,
  waitForRunReplacing,
  waitForWorkflowCompleted,
  type ResetPoint,
} from '../helpers/workflow-reset';
import { forThisFile } from '../helpers/for-this-file';

// A paid charge closes 2 s after it is paid; the infraction is resolved only when the test says.
const stack = forThisFile(() =>
  startEngineHarness(
    {
      SANDBOX_DEDUPLICATE: 'false',
      CASH_IN_LATE_PAYMENT_WINDOW_MS: '2000',
      CASH_IN_REFUND_WINDOW_MS: '2000',
      SANDBOX_INFRACTION_RESOLVE_MS: '600000',
    },
    { providerProxy: true },
  ),
);

const sent = (method: string, path: string) => {
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  return stack.provider.count(method, path);
};

test('a paid charge reset to its first task and to its last: PAID again with the same code, created once at the provider', async () => {
  const externalId = `reset${randomBytes(5).toString('hex')}`;
  await createCharge(stack, externalId, 42.1);
  const creates = sent('POST', '/api/transactions/create');
  await payCashIn(stack, externalId);
  const paid = await waitForCharge(stack, externalId, ['PAID']);

  for (const type of ['FirstWorkflowTask', 'LastWorkflowTask'] as const) {
    await waitForWorkflowCompleted(stack, chargeWorkflowId(externalId));
    expect(await resetAndWait(stack, chargeWorkflowId(externalId), { type })).toBe('COMPLETED');
    const again = (await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body;
    expect(again).toMatchObject({ status: 'PAID', qrcode: paid.qrcode, amount: 42.1 });
  }
  expect(sent('POST', '/api/transactions/create')).toBe(creates);
}, 120_000);

test("a re-run never shows a code copied into its charge's intent from another charge's: the answer does not open there, and the charge fails saying so", async () => {
  const [victim, other] = [`sealed${randomBytes(5).toString('hex')}`, `other${randomBytes(5).toString('hex')}`];
  const codes: Record<string, string> = {};
  for (const [externalId, amount] of [
    [victim, 12.3],
    [other, 45.6],
  ] as const) {
    codes[externalId] = (await createCharge(stack, externalId, amount)).qrcode ?? '';
  }
  // Someone with the database's access copies the other charge's recorded answer (its code, another amount) onto this one.
  const db = openSqlite(engineDatabasePath(stack.config.DATA_DIR), { busyTimeoutMs: 5_000 });
  try {
    const rows = db
      .prepare<[], { business_id: string; answer: string }>(
        "SELECT business_id, answer FROM money_intents WHERE kind = 'charge-creation'",
      )
      .all();
    const stored = rows.find((row) => row.business_id === other)?.answer ?? '';
    expect(stored).not.toContain(codes[other]);
    expect(
      db
        .prepare("UPDATE money_intents SET answer = ? WHERE business_id = ? AND kind = 'charge-creation'")
        .run(stored, victim).changes,
    ).toBe(1);
  } finally {
    db.close();
  }
  const creates = sent('POST', '/api/transactions/create');
  expect(await resetAndWait(stack, chargeWorkflowId(victim), { type: 'FirstWorkflowTask' })).toBe('COMPLETED');
  const view = (await stack.api<ChargeResponse>('GET', `/v1/charges/${victim}`)).body;
  expect(view).toMatchObject({ status: 'FAILED', failureReason: expect.stringContaining('it is not shown') });
  expect(view.qrcode).toBeUndefined();
  expect(JSON.stringify(view)).not.toContain(codes[other]);
  expect(sent('POST', '/api/transactions/create')).toBe(creates);
}, 120_000);

test('a charge whose creation answer was lost is created anew under a derived reference: the merchant gets a payable code, the lost one stays unpaid, callbacks of either reach it', async () => {
  const externalId = `lost${randomBytes(5).toString('hex')}`;
  const creates = sent('POST', '/api/transactions/create');
  // The provider creates the charge and the answer never comes back (the connection is reset).
  await loseNextChargeCreationAnswer(stack, 'reset');
  const created = await createCharge(stack, externalId, 31.4);
  expect(sent('POST', '/api/transactions/create') - creates).toBe(2);

  const reference = `_r2_${externalId}`;
  const [lost] = await operationsOf(stack, externalId);
  const [made] = await operationsOf(stack, reference);
  // The code the merchant shows is the second charge's; nobody was shown the first one's.
  expect(answeredCode(stack.config, made)).toBe(created.qrcode);
  expect(answeredCode(stack.config, lost)).not.toBe(created.qrcode);
  expect((await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body).toMatchObject({
    status: 'PENDING',
    providerReference: reference,
  });

  // The first charge ends at the provider. Its callback names the externalId: a hint, checked against the charge made.
  // Where callbacks name only the provider's id (the seed profile), it names an id the engine was never told: it is
  // kept for operators as unmatched, and the charge is unchanged all the same.
  const providerIdsOnly = stack.config.SANDBOX_PROFILE === 'seed';
  const lostId = lost?.transactionId ?? '';
  expect(
    (await stack.admin('POST', `/sandbox/operations/${encodeURIComponent(lostId)}/outcome`, { status: 'FAILED' }))
      .status,
  ).toBe(200);
  const lostCallbackArrived = providerIdsOnly
    ? async () => JSON.stringify((await stack.api('GET', '/v1/callbacks/unmatched')).body).includes(lostId)
    : async () => (await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body.callbacksReceived === 1;
  await pollUntil(async () => ((await lostCallbackArrived()) ? true : undefined), {
    timeoutMs: 30_000,
    intervalMs: 200,
    description: "the lost charge's callback to arrive",
  });
  expect((await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body.status).toBe('PENDING');

  // The payer pays the code shown; its callback names the derived reference and reaches the charge too.
  await payCashIn(stack, reference);
  const paid = await waitForCharge(stack, externalId, ['PAID']);
  expect(paid).toMatchObject({ qrcode: created.qrcode, amount: 31.4, providerTransactionId: made?.transactionId });
  await pollUntil(
    async () =>
      (await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body.callbacksReceived ===
      (providerIdsOnly ? 1 : 2)
        ? true
        : undefined,
    {
      timeoutMs: 30_000,
      intervalMs: 200,
      description: "the paid charge's callback to reach the charge",
    },
  );
  expect((await operationsOf(stack, externalId)).map((operation) => operation.status)).toEqual(['FAILED']);

  // A reset answers the code recorded in the intent: nothing created again.
  await waitForWorkflowCompleted(stack, chargeWorkflowId(externalId));
  expect(await resetAndWait(stack, chargeWorkflowId(externalId), { type: 'FirstWorkflowTask' })).toBe('COMPLETED');
  expect((await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body).toMatchObject({
    status: 'PAID',
    qrcode: created.qrcode,
    providerReference: reference,
  });
  expect(sent('POST', '/api/transactions/create') - creates).toBe(2);
}, 120_000);

test('a re-created charge whose first reference is paid ends PAID with that one payment credited; the other reference paid too goes to review, naming both', async () => {
  const externalId = `first${randomBytes(5).toString('hex')}`;
  await loseNextChargeCreationAnswer(stack, 'reset');
  await createCharge(stack, externalId, 27.5);
  const reference = `_r2_${externalId}`;
  const [first] = await operationsOf(stack, externalId);

  // The provider mailed the first charge's code to the payer, who pays it: the order is paid by it.
  await payCashIn(stack, externalId);
  const paid = await waitForCharge(stack, externalId, ['PAID']);
  expect(paid).toMatchObject({
    providerReferences: [externalId, reference],
    paidReference: externalId,
    providerTransactionId: first?.transactionId,
    amount: 27.5,
  });
  expect(paid.transitions.filter((transition) => transition.to === 'PAID')).toHaveLength(1);
  expect(paid.secondPayments).toBeUndefined();

  // The code the merchant showed is paid as well: a second payment, which the order does not take; an operator refunds it.
  await payCashIn(stack, reference);
  const [second] = await operationsOf(stack, reference);
  const reviewed = await pollUntil(
    async () => {
      const view = (await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body;
      return view.secondPayments ? view : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, description: 'the second payment to be seen' },
  );
  expect(reviewed).toMatchObject({
    status: 'PAID',
    paidReference: externalId,
    providerTransactionId: first?.transactionId,
  });
  expect(reviewed.secondPayments).toEqual([
    { reference, providerTransactionId: second?.transactionId, at: expect.any(String) },
  ]);
  expect(reviewed.problem?.message).toEqual(
    expect.stringContaining(`${externalId} (provider id ${first?.transactionId ?? ''}) settled the order`),
  );
  expect(reviewed.problem?.message).toEqual(
    expect.stringContaining(`${reference} (provider id ${second?.transactionId ?? ''}) was paid too`),
  );

  await waitForWorkflowCompleted(stack, chargeWorkflowId(externalId));
  await recordHistory(stack.temporal.client, chargeWorkflowId(externalId), 'charge-recreated-paid-twice');
}, 120_000);

/** A charge created through the engine, paid by the payer, and closed (its refund window is 2 s here). */
async function paidAndClosedCharge(label: string): Promise<{ externalId: string; qrcode: string }> {
  const externalId = `${label}${randomBytes(5).toString('hex')}`;
  const created = await createCharge(stack, externalId, 19.9);
  await payCashIn(stack, externalId);
  await waitForCharge(stack, externalId, ['PAID']);
  await waitForWorkflowCompleted(stack, chargeWorkflowId(externalId));
  return { externalId, qrcode: created.qrcode ?? '' };
}

test('paid charges reset to every workflow task (after the creation, after the callback, after the check): PAID again with the same code, each created once and paid once', async () => {
  const probe = await paidAndClosedCharge('evprobe');
  const tasks = (await resettableWorkflowTasks(stack, chargeWorkflowId(probe.externalId))).length;
  expect(tasks).toBeGreaterThanOrEqual(2);
  // The n-th task of each charge's own history (the probe takes the first): a created charge is what a reset could repeat.
  const charges = [probe, ...(await Promise.all(Array.from({ length: tasks - 1 }, () => paidAndClosedCharge('ev'))))];
  const creates = sent('POST', '/api/transactions/create');
  await Promise.all(
    charges.map(async (charge, i) => {
      const point = await nthResettableTask(stack, chargeWorkflowId(charge.externalId), i);
      expect({
        point: describePoint(point),
        status: await resetAndWait(stack, chargeWorkflowId(charge.externalId), point),
      }).toEqual({ point: describePoint(point), status: 'COMPLETED' });
      expect((await stack.api<ChargeResponse>('GET', `/v1/charges/${charge.externalId}`)).body).toMatchObject({
        status: 'PAID',
        qrcode: charge.qrcode,
      });
      const [operation, ...more] = await operationsOf(stack, charge.externalId);
      expect({ operations: more.length + 1, status: operation?.status }).toEqual({ operations: 1, status: 'PAID' });
    }),
  );
  expect(sent('POST', '/api/transactions/create')).toBe(creates);
}, 180_000);

/** An infraction opened on a paid cash-in, synced, defended through the engine: its defense sent once. */
async function defendedInfraction(): Promise<string> {
  const id = await openInfractionSynced(stack, 70);
  const defended = await stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, DEFENSE);
  expect(defended.body.status).toBe('DEFENSE_SUBMITTED');
  return id;
}

test('a defended infraction reset to its first task: the defense is not sent again, and the merchant sending it again is answered from the provider', async () => {
  const id = await defendedInfraction();
  const defensePath = `/api/meds/infractions/${id}/defense`;
  expect(sent('POST', defensePath)).toBe(1);

  const replaced = await resetWorkflow(stack, infractionWorkflowId(id), { type: 'FirstWorkflowTask' });
  await waitForRunReplacing(stack, infractionWorkflowId(id), replaced);
  // Whether the reset run re-applied the defense update or waits for one, the merchant's defense is answered without a second send.
  const again = await stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, DEFENSE);
  expect(again.status).toBe(200);
  expect(again.body.status).toBe('DEFENSE_SUBMITTED');
  expect(sent('POST', defensePath)).toBe(1);
}, 120_000);

test('defended infractions reset to their last task and to every workflow task (after the claim, after the send): the defense is never sent again', async () => {
  const probe = await defendedInfraction();
  const tasks = (await resettableWorkflowTasks(stack, infractionWorkflowId(probe))).length;
  // Its last task, then the n-th task of each infraction's own history.
  const infractions = [probe, ...(await Promise.all(Array.from({ length: tasks }, () => defendedInfraction())))];
  await Promise.all(
    infractions.map(async (id, i) => {
      const point: ResetPoint =
        i === 0 ? { type: 'LastWorkflowTask' } : await nthResettableTask(stack, infractionWorkflowId(id), i - 1);
      const replaced = await resetWorkflow(stack, infractionWorkflowId(id), point);
      await waitForRunReplacing(stack, infractionWorkflowId(id), replaced);
      // The merchant sends the defense again: answered from the provider (or the re-applied update), not sent.
      const again = await stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, DEFENSE);
      expect({ point: describePoint(point), status: again.status, state: again.body.status }).toEqual({
        point: describePoint(point),
        status: 200,
        state: 'DEFENSE_SUBMITTED',
      });
      expect({ point: describePoint(point), sent: sent('POST', `/api/meds/infractions/${id}/defense`) }).toEqual({
        point: describePoint(point),
        sent: 1,
      });
    }),
  );
}, 180_000);
