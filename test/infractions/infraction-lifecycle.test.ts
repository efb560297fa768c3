/**
 * MED infractions through the real stack: infractions opened at the sandbox (its admin API) on paid
 * cash-ins, discovered by the MED sync (a Temporal Schedule, triggered through the engine API), one
 * workflow per infraction, defended through the engine, followed to the provider's resolution. The engine
 * reaches the sandbox through a recording proxy: the defenses counted are those the engine sent.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { ChargeResponse } from '../../src/api/charges/schemas';
import type { InfractionResponse } from '../../src/api/infractions/schemas';
import { pollUntil } from '../../src/util/poll';
import { INFRACTION_FLOW } from '../../src/contracts/infraction';
import { infractionWorkflowId, type InfractionWorkflow } from '../../src/contracts/infraction';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { defenseUpdateAnswer, openInfractionOnPaidCashIn, waitForInfraction } from '../helpers/infractions';
import { recordHistory } from '../helpers/record-history';

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness(
    { MED_SYNC_PAGE_SIZE: '2', SANDBOX_INFRACTION_RESOLVE_MS: '0' },
    { providerProxy: true },
  );
});
afterEach(async () => {
  await stack.admin('DELETE', '/sandbox/faults');
});
afterAll(() => stack?.close());

const defensePath = (id: string) => `/api/meds/infractions/${id}/defense`;
/** Defenses of this infraction the engine sent the provider. */
const defensesSent = (id: string) => {
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  return stack.provider.count('POST', defensePath(id));
};

const openInfraction = (amount = 80) => openInfractionOnPaidCashIn(stack, amount);

const sync = async () => expect((await stack.api('POST', '/v1/infractions/sync')).status).toBe(202);

const infractionReaches = (id: string, statuses: string[]) => waitForInfraction(stack, id, statuses);

const resolveAtSandbox = (id: string, status: string) =>
  stack.admin('POST', `/sandbox/infractions/${id}/resolve`, { status });

test('an infraction opened at the provider appears after a sync, OPEN, with its deadline and amount, unlinked', async () => {
  const id = await openInfraction(80);
  expect((await stack.api('GET', `/v1/infractions/${id}`)).status).toBe(404);
  await sync();
  // The link to an engine charge is looked up once the workflow runs: absent until then.
  const seen = await pollUntil(
    async () => {
      const view = await infractionReaches(id, ['OPEN']);
      return view.chargeExternalId === undefined ? undefined : view;
    },
    { timeoutMs: 20_000, intervalMs: 200, description: 'the charge link to be looked up' },
  );
  expect(seen).toMatchObject({
    infractionId: id,
    providerStatus: 'WAITING_PSP',
    amount: 80,
    reason: 'fraud',
    chargeExternalId: null,
  });
  expect(Date.parse(seen.deadline ?? '') - Date.parse(seen.createdAt ?? '')).toBe(7 * 24 * 3_600_000);

  // Visibility follows the workflow shortly after: what is due this week lists it.
  const dueThisWeek = `/v1/infractions?status=OPEN&dueBefore=${encodeURIComponent(new Date(Date.now() + 8 * 86_400_000).toISOString())}&limit=500`;
  const listed = await pollUntil(
    async () => {
      const answer = await stack.api<{ data: { infractionId: string; amount: number; deadline: string }[] }>(
        'GET',
        dueThisWeek,
      );
      return answer.body.data.find((item) => item.infractionId === id);
    },
    { timeoutMs: 10_000, intervalMs: 200, description: 'the infraction in the list of what is due this week' },
  );
  expect(listed).toMatchObject({ amount: 80, deadline: seen.deadline });
  const later = await stack.api<{ data: unknown[] }>(
    'GET',
    `/v1/infractions?status=OPEN&dueBefore=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}&limit=500`,
  );
  expect(later.body.data.map((item) => (item as { infractionId: string }).infractionId)).not.toContain(id);
});

test('a defense goes to the provider once, the provider accepts the claim: ACCEPTED; a defense after that is a 409', async () => {
  const id = await openInfraction(50);
  await sync();
  await infractionReaches(id, ['OPEN']);
  const defense = {
    analise: 'ACEITA',
    justificativa: 'O pagador foi vítima de golpe; devolvemos.',
    proofs: ['https://example.com/proof.pdf'],
  };
  const answer = await stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, defense);
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({
    status: 'DEFENSE_SUBMITTED',
    defense: { analise: 'ACEITA', proofs: ['https://example.com/proof.pdf'] },
  });
  const atProvider = await stack.admin<{ infraction: { analise?: string; justificativa?: string } }>(
    'GET',
    `/sandbox/infractions/${id}`,
  );
  expect(atProvider.body.infraction).toMatchObject({ analise: 'ACEITA', justificativa: defense.justificativa });

  // The same request again joins the same update: still one defense.
  expect((await stack.api('POST', `/v1/infractions/${id}/defense`, defense)).status).toBe(200);
  expect(defensesSent(id)).toBe(1);

  await resolveAtSandbox(id, 'ACCEPTED');
  await sync();
  const accepted = await infractionReaches(id, ['ACCEPTED']);
  expect(accepted.transitions.map((t) => t.to)).toEqual(['OPEN', 'DEFENSE_SUBMITTED', 'ACCEPTED']);
  await recordHistory(stack.temporal.client, infractionWorkflowId(id), 'infraction-defended-accepted');

  const late = await stack.api('POST', `/v1/infractions/${id}/defense`, { ...defense, analise: 'NEGADA' });
  expect(late.status).toBe(409);
});

test('an infraction against a charge of the engine links to it; accepted, the charge is PARTIALLY_REFUNDED with the amount', async () => {
  const externalId = `med${randomUUID().slice(0, 8)}`;
  const created = await stack.api('POST', '/v1/charges', {
    externalId,
    amount: 100,
    payer: { name: 'Ana Souza', document: '52998224725' },
  });
  expect(created.status).toBe(201);
  expect((await stack.admin('POST', `/sandbox/cash-ins/${externalId}/pay`, {})).status).toBe(200);
  // Indexed by the provider's id once paid: that is how the infraction finds it.
  const paid = await pollUntil(
    async () => {
      const list = await stack.api<{ data: { externalId: string }[] }>('GET', '/v1/charges?status=PAID');
      if (!list.body.data.some((item) => item.externalId === externalId)) return undefined;
      return (await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body;
    },
    { timeoutMs: 30_000, intervalMs: 250, description: 'the charge to be PAID and indexed' },
  );
  const opened = await stack.admin<{ infraction: { id: string } }>('POST', '/sandbox/infractions', {
    transactionId: paid.providerTransactionId,
    reason: 'fraud',
    amount: 40,
  });
  expect(opened.status).toBe(200);
  const id = opened.body.infraction.id;
  await sync();
  const linked = await pollUntil(
    async () => {
      const view = (await stack.api<InfractionResponse>('GET', `/v1/infractions/${id}`)).body;
      return view.chargeExternalId === undefined ? undefined : view;
    },
    { timeoutMs: 30_000, intervalMs: 250, description: 'the infraction to look up its charge' },
  );
  expect(linked.chargeExternalId).toBe(externalId);

  await resolveAtSandbox(id, 'ACCEPTED');
  await sync();
  await infractionReaches(id, ['ACCEPTED']);
  // The workflow tells the charge right after it moved to ACCEPTED: a read in between sees no refund yet.
  const accepted = await pollUntil(
    async () => {
      const view = (await stack.api<InfractionResponse>('GET', `/v1/infractions/${id}`)).body;
      return view.refundRecordedAt === undefined ? undefined : view;
    },
    { timeoutMs: 30_000, intervalMs: 250, description: 'the accepted infraction to record its refund on the charge' },
  );
  expect(accepted.refundRecordedAt).toBeDefined();
  const refunded = await pollUntil(
    async () => {
      const view = (await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body;
      return view.status === 'PARTIALLY_REFUNDED' ? view : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 250, description: 'the charge to be refunded' },
  );
  expect(refunded).toMatchObject({ refundedAmount: 40, refunds: [{ infractionId: id, amount: 40 }] });
  expect(refunded.transitions.at(-1)?.cause).toContain(id);
});

test('REJECTED and CANCELLED at the provider are followed; a bad defense is a 400 naming its fields', async () => {
  const rejected = await openInfraction(30);
  const cancelled = await openInfraction(31);
  await sync();
  await infractionReaches(rejected, ['OPEN']);
  await infractionReaches(cancelled, ['OPEN']);

  const bad = await stack.api('POST', `/v1/infractions/${rejected}/defense`, {
    analise: 'MAYBE',
    justificativa: '',
    proofs: ['http://insecure.example/x'],
  });
  expect(bad.status).toBe(400);
  expect((bad.body as { issues: { path: string }[] }).issues.map((issue) => issue.path).sort()).toEqual([
    'analise',
    'justificativa',
    'proofs.0',
  ]);

  expect(
    (
      await stack.api('POST', `/v1/infractions/${rejected}/defense`, {
        analise: 'NEGADA',
        justificativa: 'Entrega comprovada.',
      })
    ).status,
  ).toBe(200);
  await resolveAtSandbox(rejected, 'REJECTED');
  await resolveAtSandbox(cancelled, 'CANCELLED');
  await sync();
  expect((await infractionReaches(rejected, ['REJECTED'])).status).toBe('REJECTED');
  expect((await infractionReaches(cancelled, ['CANCELLED'])).transitions.map((t) => t.to)).toEqual([
    'OPEN',
    'CANCELLED',
  ]);
});

test('every page is read (more infractions than perPage), and repeated syncs keep one workflow per infraction', async () => {
  const ids = await Promise.all([1, 2, 3, 4, 5].map((n) => openInfraction(20 + n)));
  await sync();
  await sync();
  for (const id of ids) await infractionReaches(id, ['OPEN']);
  await sync();
  for (const id of ids) {
    let runs = 0;
    for await (const execution of stack.temporal.client.workflow.list({
      query: `WorkflowId = '${infractionWorkflowId(id)}' AND PayoutFlow = '${INFRACTION_FLOW}'`,
    })) {
      if (execution.workflowId === infractionWorkflowId(id)) runs += 1;
    }
    expect(runs).toBe(1);
  }
});

test('while the first defense is with the provider, a different one is refused and the same one gets its answer: one defense sent', async () => {
  const id = await openInfraction(60);
  await sync();
  await infractionReaches(id, ['OPEN']);
  const first = { analise: 'NEGADA', justificativa: 'Entrega comprovada.', proofs: [] };
  // The provider is slow to answer: the first defense is still in flight when the others come.
  expect((await stack.admin('PUT', '/sandbox/faults', { latencyMs: 1_500 })).status).toBe(200);
  const firstAnswer = stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, first);
  await pollUntil(() => (defensesSent(id) === 1 ? true : undefined), {
    timeoutMs: 20_000,
    intervalMs: 20,
    description: 'the first defense to reach the provider',
  });

  // Straight to the workflow: what the API answers for each update outcome is its own test.
  const handle = stack.temporal.client.workflow.getHandle<InfractionWorkflow>(infractionWorkflowId(id));
  const different = await defenseUpdateAnswer(handle, { ...first, analise: 'ACEITA' });
  expect(different).toBeInstanceOf(WorkflowUpdateFailedError);
  expect((different as WorkflowUpdateFailedError).cause?.message).toBe(
    'a different defense was already sent for this infraction',
  );
  const [answered, again] = await Promise.all([
    firstAnswer,
    stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, first),
  ]);
  expect(answered.status).toBe(200);
  expect(answered.body).toMatchObject({ status: 'DEFENSE_SUBMITTED', defense: { analise: 'NEGADA' } });
  expect(again.status).toBe(200);
  expect(again.body.defense).toEqual(answered.body.defense);

  expect(defensesSent(id)).toBe(1);
  const atProvider = await stack.admin<{ infraction: { analise?: string } }>('GET', `/sandbox/infractions/${id}`);
  expect(atProvider.body.infraction.analise).toBe('NEGADA');
});

/** The seed profile lists infractions without their defense: a retry cannot find one there. */
const providerShowsDefenses = () => stack.config.SANDBOX_PROFILE !== 'seed';

/** The answer to the first send of this infraction's defense is lost: the provider takes it, the connection is reset. */
const loseFirstDefenseAnswer = async (id: string) =>
  expect(
    (
      await stack.admin('PUT', '/sandbox/faults', {
        timeoutAfterCommit: { count: 1, mode: 'reset', paths: [defensePath(id)] },
      })
    ).status,
  ).toBe(200);

test('a defense the provider takes and whose answer is lost: the retry finds it at the provider (when its list shows defenses) instead of sending it again', async () => {
  const id = await openInfraction(61);
  await sync();
  await infractionReaches(id, ['OPEN']);
  await loseFirstDefenseAnswer(id);
  const answer = await stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, {
    analise: 'ACEITA',
    justificativa: 'Devolvemos ao pagador.',
    proofs: [],
  });
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ status: 'DEFENSE_SUBMITTED', defense: { analise: 'ACEITA' } });
  // The fault fired (its count is consumed); the provider holds one defense.
  expect((await stack.admin<{ faults: Record<string, unknown> }>('GET', '/sandbox/faults')).body.faults).toEqual({});
  expect(
    (await stack.admin<{ infraction: { analise?: string } }>('GET', `/sandbox/infractions/${id}`)).body.infraction
      .analise,
  ).toBe('ACEITA');
  // Found at the provider: sent once. A provider that does not show defenses is sent it again (the next test).
  expect(defensesSent(id)).toBe(providerShowsDefenses() ? 1 : 2);
});

test('a defense whose answer is lost, against a provider whose list never shows defenses: sent again, and its refusal read as taken, not confirmed; the same defense again is answered without a send', async () => {
  const id = await openInfraction(62);
  await sync();
  await infractionReaches(id, ['OPEN']);
  // This infraction's record, as a provider that does not list defenses shows it, whatever the profile.
  const strip = (record: unknown) => {
    if (typeof record !== 'object' || record === null || (record as { id?: unknown }).id !== id) return record;
    const {
      defendedAt: _at,
      analise: _analise,
      justificativa: _text,
      proofs: _proofs,
      ...rest
    } = record as Record<string, unknown>;
    return rest;
  };
  stack.provider?.translate('/api/meds/infractions/list', {
    answer: (body) => {
      const page = body as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(page).map(([key, value]) => [key, Array.isArray(value) ? value.map(strip) : value]),
      );
    },
  });
  await loseFirstDefenseAnswer(id);
  const defense = { analise: 'NEGADA', justificativa: 'Entrega comprovada.', proofs: [] };
  const answer = await stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, defense);
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({
    status: 'DEFENSE_SUBMITTED',
    defense: { analise: 'NEGADA', providerAnswer: expect.stringMatching(/^not confirmed: .*refused it sent again/) },
  });
  expect(defensesSent(id)).toBe(2);
  expect(
    (await stack.admin<{ infraction: { analise?: string } }>('GET', `/sandbox/infractions/${id}`)).body.infraction
      .analise,
  ).toBe('NEGADA');

  const again = await stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, defense);
  expect(again.status).toBe(200);
  expect(again.body.defense).toEqual(answer.body.defense);
  expect(defensesSent(id)).toBe(2);
});
