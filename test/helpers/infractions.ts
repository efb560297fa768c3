/** What infraction tests keep asking: an infraction opened on a paid cash-in, and its view once it reaches one of the states. */
import { randomUUID } from 'node:crypto';
import type { InfractionResponse } from '../../src/api/infractions/schemas';
import { paymentApiClient } from '../../src/engine/payment-api-client';
import { pollUntil } from '../../src/util/poll';
import type { WorkflowHandle } from '@temporalio/client';
import { defendInfractionUpdate, type InfractionWorkflow } from '../../src/contracts/infraction';
import type { Defense } from '../../src/infractions/defense';
import type { EngineHarness } from './engine-harness';

/**
 * Triggers the MED sync again while it waits: a trigger that meets the previous sync still running is
 * skipped (the Schedule's overlap policy), which a loaded machine makes likely.
 */
export function waitForInfraction(stack: EngineHarness, id: string, statuses: string[]): Promise<InfractionResponse> {
  return pollUntil(
    async () => {
      const answer = await stack.api<InfractionResponse>('GET', `/v1/infractions/${id}`);
      if (answer.status === 200 && statuses.includes(answer.body.status)) return answer.body;
      await stack.api('POST', '/v1/infractions/sync');
      return undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500, description: `infraction ${id} to reach ${statuses.join('|')}` },
  );
}

/** A PIX cash-in paid at the provider (not through the engine) and an infraction the sandbox opens on it: its id. */
export async function openInfractionOnPaidCashIn(stack: EngineHarness, amount: number): Promise<string> {
  const api = paymentApiClient(stack.config);
  const transactionId = `ci-${randomUUID().slice(0, 8)}`;
  await api.createPixCashIn({
    amount,
    payerName: 'Ana Souza',
    payerDocument: '52998224725',
    transactionId,
    projectWebhook: 'http://127.0.0.1:9/hook',
  });
  expect((await stack.admin('POST', `/sandbox/cash-ins/${transactionId}/pay`, {})).status).toBe(200);
  const providerId = (await api.checkTransaction(transactionId)).transaction.transactionId;
  const opened = await stack.admin<{ infraction: { id: string } }>('POST', '/sandbox/infractions', {
    transactionId: providerId,
    reason: 'fraud',
  });
  expect(opened.status).toBe(200);
  return opened.body.infraction.id;
}

/** An infraction opened on a paid cash-in and synced into the engine: its id, once its view says OPEN. */
export async function openInfractionSynced(stack: EngineHarness, amount: number): Promise<string> {
  const id = await openInfractionOnPaidCashIn(stack, amount);
  expect((await stack.api('POST', '/v1/infractions/sync')).status).toBe(202);
  await waitForInfraction(stack, id, ['OPEN']);
  return id;
}

/** The merchant's defense the tests send: the payment was delivered. */
export const DEFENSE = { analise: 'NEGADA', justificativa: 'Entrega comprovada pelo rastreio.' };

/** `defense` sent straight to the infraction's workflow as an update: its outcome, or the error it was refused with. */
export const defenseUpdateAnswer = (handle: WorkflowHandle<InfractionWorkflow>, defense: Defense): Promise<unknown> =>
  handle.executeUpdate(defendInfractionUpdate, { args: [defense] }).catch((error: unknown) => error);
