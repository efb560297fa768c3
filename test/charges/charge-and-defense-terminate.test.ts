/**
 * An operator terminates a charge mid-creation and an infraction mid-defense (`temporal workflow
 * terminate`, the real CLI). The view says the workflow was terminated and what its intent holds; the
 * documented action (a reset of the workflow, docs/operations.md) settles it with one money movement: the
 * charge gets one payable code (made anew under a derived reference: nobody has the first one's), the
 * defense is sent once (taken over from the dead run once none of its attempts can still send). The engine
 * reaches the sandbox through a recording proxy and the sandbox does not de-duplicate.
 */
import { randomBytes } from 'node:crypto';
import type { ChargeResponse } from '../../src/api/charges/schemas';
import type { InfractionResponse } from '../../src/api/infractions/schemas';
import { pollUntil } from '../../src/util/poll';
import { chargeWorkflowId } from '../../src/contracts/charge';
import { infractionWorkflowId } from '../../src/contracts/infraction';
import { startEngineHarness } from '../helpers/engine-harness';
import { DEFENSE, openInfractionSynced } from '../helpers/infractions';
import { loseNextChargeCreationAnswer, operationsOf, PAYER, payCashIn } from '../helpers/charges';
import { answeredCode } from '../helpers/provider-charges';
import { resetWorkflow, terminateWorkflow, waitForRunReplacing } from '../helpers/workflow-reset';
import { forThisFile } from '../helpers/for-this-file';

const stack = forThisFile(() =>
  startEngineHarness(
    { SANDBOX_DEDUPLICATE: 'false', CASH_IN_LATE_PAYMENT_WINDOW_MS: '2000', CASH_IN_REFUND_WINDOW_MS: '2000' },
    { providerProxy: true },
  ),
);
afterEach(() => stack.admin('DELETE', '/sandbox/faults'));

function proxy() {
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  return stack.provider;
}

const terminate = (workflowId: string) =>
  terminateWorkflow(stack, workflowId, 'test: operator terminates mid-operation');

/** Resets the terminated workflow to its first task; resolves once the run the reset made is running. */
async function resetToFirstTask(workflowId: string): Promise<void> {
  await waitForRunReplacing(stack, workflowId, await resetWorkflow(stack, workflowId, { type: 'FirstWorkflowTask' }));
}

const charge = (externalId: string) => ({ externalId, amount: 27.3, payer: PAYER });

test('a charge terminated mid-creation: its view says TERMINATED with the creation intent CLAIMED; a reset creates it anew under a derived reference, one payable code, one payment', async () => {
  const externalId = `term${randomBytes(5).toString('hex')}`;
  const creates = proxy().count('POST', '/api/transactions/create');
  // The provider creates the charge and never answers: the merchant's request waits while the operator terminates.
  await loseNextChargeCreationAnswer(stack, 'hang');
  const waiting = stack.api<{ code: string }>('POST', '/v1/charges', charge(externalId));
  await pollUntil(async () => ((await operationsOf(stack, externalId)).length === 1 ? true : undefined), {
    timeoutMs: 20_000,
    intervalMs: 50,
    description: `the provider to hold ${externalId}`,
  });
  await terminate(chargeWorkflowId(externalId));

  // Every answer is defined: the waiting request and a repeated one name the rule, never a 500.
  const answered = await waiting;
  expect({ status: answered.status, code: answered.body.code }).toEqual({ status: 409, code: 'CHARGE_UNFINISHED' });
  expect((await stack.api<{ code: string }>('POST', '/v1/charges', charge(externalId))).body.code).toBe(
    'CHARGE_UNFINISHED',
  );
  const view = await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`);
  expect(view.body).toMatchObject({ status: 'PENDING', workflowStatus: 'TERMINATED', creation: { intent: 'CLAIMED' } });

  await resetToFirstTask(chargeWorkflowId(externalId));
  const created = await stack.api<ChargeResponse>('POST', '/v1/charges', charge(externalId));
  expect(created.status).toBe(201);
  const reference = `_r2_${externalId}`;
  const [made] = await operationsOf(stack, reference);
  expect(answeredCode(stack.config, made)).toBe(created.body.qrcode);
  expect((await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body).toMatchObject({
    status: 'PENDING',
    providerReference: reference,
  });
  expect((await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body.workflowStatus).toBeUndefined();

  await payCashIn(stack, reference);
  const paid = await pollUntil(
    async () => {
      const answer = await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`);
      return answer.body.status === 'PAID' ? answer.body : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, description: `charge ${externalId} to be PAID` },
  );
  expect(paid).toMatchObject({ qrcode: created.body.qrcode, providerTransactionId: made?.transactionId });
  // Two charges at the provider, one paid: the first one's code was never shown to anyone.
  expect((await operationsOf(stack, externalId)).map((operation) => operation.status)).toEqual(['PENDING']);
  expect(proxy().count('POST', '/api/transactions/create') - creates).toBe(2);
}, 120_000);

test('an infraction terminated mid-defense, the defense never at the provider: the view says TERMINATED with the defense intent CLAIMED; after a reset the defense is taken over from the dead run and sent once', async () => {
  const id = await openInfractionSynced(stack, 70);
  const defensePath = `/api/meds/infractions/${id}/defense`;

  // The defense is claimed and its request lost on the way: the merchant waits while the operator terminates.
  proxy().holdNext(defensePath);
  const waiting = stack.api<{ code: string }>('POST', `/v1/infractions/${id}/defense`, DEFENSE);
  await pollUntil(() => (proxy().count('POST', defensePath) === 1 ? true : undefined), {
    timeoutMs: 20_000,
    intervalMs: 50,
    description: 'the defense to leave',
  });
  await terminate(infractionWorkflowId(id));
  const answered = await waiting;
  expect(answered.status).toBeGreaterThanOrEqual(400);
  expect(answered.status).toBeLessThan(500);
  const view = await stack.api<InfractionResponse>('GET', `/v1/infractions/${id}`);
  expect(view.body).toMatchObject({
    status: 'OPEN',
    workflowStatus: 'TERMINATED',
    defenseSubmission: { intent: 'CLAIMED' },
  });

  // The documented action: reset the infraction, then the merchant sends the defense again. The dead run's
  // claim is taken over once none of its attempts can still send (the activity's start-to-close timeout).
  await resetToFirstTask(infractionWorkflowId(id));
  const defended = await stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, DEFENSE);
  expect({ status: defended.status, state: defended.body.status }).toEqual({ status: 200, state: 'DEFENSE_SUBMITTED' });
  expect(proxy().count('POST', defensePath)).toBe(2);
  const atProvider = await stack.admin<{ infraction: { analise: string | null; defendedAt: string | null } }>(
    'GET',
    `/sandbox/infractions/${id}`,
  );
  expect(atProvider.body.infraction).toMatchObject({ analise: 'NEGADA' });
  expect((await stack.api<InfractionResponse>('GET', `/v1/infractions/${id}`)).body.workflowStatus).toBeUndefined();
}, 150_000);
