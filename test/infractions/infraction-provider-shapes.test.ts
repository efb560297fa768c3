/**
 * MED against a provider whose endpoint 7 and 8 look like none of the sandbox's (the spec shows neither):
 * the sandbox behind a proxy that renames every record field, puts the list under an envelope of its own,
 * applies a page size of 3 whatever is asked, and answers a defense with `{message}` alone. The engine is
 * configured as docs/provider-integration.md tells an integrator (MED_RECORD_FIELDS; the envelope found on
 * its own): every infraction syncs across the pages, one record it cannot read goes to review alone (its
 * field names in the `problem`, never its values), and a defense the provider takes is sent once.
 */
import { randomUUID } from 'node:crypto';
import type { InfractionResponse } from '../../src/api/infractions/schemas';
import { pollUntil } from '../../src/util/poll';
import { NOT_A_PLAIN_ID } from '../../src/infractions/infraction-id';
import type { medSyncWorkflow } from '../../workflows/infractions/med-sync-workflow';
import { infractionWorkflowId } from '../../src/contracts/infraction';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { openInfractionOnPaidCashIn, waitForInfraction } from '../helpers/infractions';
import { recordHistory } from '../helpers/record-history';
import { waitForWorkflowCompleted } from '../helpers/workflow-reset';

/** The provider's names of the sandbox's record fields. */
const NAMES: Record<string, string> = {
  id: 'codigo',
  transactionId: 'transacao',
  status: 'situacao',
  amount: 'valor',
  createdAt: 'abertaEm',
  defenseDeadline: 'prazo',
  reason: 'motivo',
  defendedAt: 'defendidaEm',
  analise: 'parecer',
  resolvedAt: 'encerradaEm',
};
const PAGE_SIZE = 3;
/** Infractions whose record this provider sends without its amount, and with its payer's name. */
const broken = new Set<string>();
/** Infractions whose id this provider sends with a backslash at its end: no plain token. */
const backslashed = new Set<string>();

function renamed(record: Record<string, unknown>): Record<string, unknown> {
  const out = Object.fromEntries(
    Object.entries(record).flatMap(([field, value]) => (NAMES[field] ? [[NAMES[field], value]] : [])),
  );
  if (backslashed.has(String(record.id))) out.codigo = `${String(record.id)}\\`;
  if (!broken.has(String(record.id))) return out;
  const { valor: _amount, ...rest } = out;
  return { ...rest, nomePagador: 'Ana Souza' };
}

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness(
    {
      MED_SYNC_PAGE_SIZE: '100',
      SANDBOX_INFRACTION_RESOLVE_MS: '600000',
      MED_RECORD_FIELDS: Object.entries(NAMES)
        .map(([field, name]) => `${field}=${name}`)
        .join(','),
    },
    { providerProxy: true },
  );
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  stack.provider.translate(/^\/api\/meds\/infractions\/list$/, {
    query: (params) => params.set('perPage', String(Math.min(Number(params.get('perPage') ?? PAGE_SIZE), PAGE_SIZE))),
    answer: (body) => {
      // The sandbox's list, under whichever envelope its profile uses.
      const page = body as { data?: Record<string, unknown>[]; content?: Record<string, unknown>[] };
      return { resultado: { infracoes: (page.data ?? page.content ?? []).map(renamed) }, versao: 2 };
    },
  });
  stack.provider.translate(/^\/api\/meds\/infractions\/[^/]+\/defense$/, {
    answer: () => ({ message: 'Defesa recebida' }),
  });
});
afterAll(() => stack?.close());

const listRequests = () => stack.provider?.count('GET', '/api/meds/infractions/list') ?? 0;

test('every infraction syncs across pages of the provider’s size; one it cannot read goes to review alone, then opens once it can be read', async () => {
  const ids: string[] = [];
  for (const amount of [41, 42, 43, 44, 45, 46, 47]) ids.push(await openInfractionOnPaidCashIn(stack, amount));
  const unreadable = ids[3] ?? '';
  broken.add(unreadable);

  const before = listRequests();
  const readable = ids.filter((id) => id !== unreadable);
  for (const id of readable) expect((await waitForInfraction(stack, id, ['OPEN'])).amount).toBeGreaterThan(40);
  // At least 7 records at 3 a page: the sync read past the short pages it was given.
  expect(listRequests() - before).toBeGreaterThanOrEqual(3);

  const review = await waitForInfraction(stack, unreadable, ['NEEDS_REVIEW']);
  expect(review.amount).toBeUndefined();
  expect(review.problem?.message).toContain('could not be read (no amount)');
  expect(review.problem?.message).toContain('codigo, transacao, situacao');
  expect(review.problem?.message).toContain('nomePagador');
  expect(review.problem?.message).not.toContain('Ana');
  const refused = await stack.api<{ code: string }>('POST', `/v1/infractions/${unreadable}/defense`, {
    analise: 'NEGADA',
    justificativa: 'Entrega comprovada.',
  });
  expect(refused.status).toBe(409);
  // Listed for review, without an amount or a deadline the engine could not read.
  const listed = await pollUntil(
    async () =>
      (
        await stack.api<{ data: { infractionId: string }[] }>('GET', '/v1/infractions?status=NEEDS_REVIEW&limit=500')
      ).body.data.find((item) => item.infractionId === unreadable),
    { timeoutMs: 10_000, intervalMs: 200, description: 'the infraction in the review list' },
  );
  expect(listed).toEqual({
    infractionId: unreadable,
    status: 'NEEDS_REVIEW',
    createdAt: expect.any(String) as unknown,
    updatedAt: expect.any(String) as unknown,
  });

  // The provider's record can be read again: the infraction opens, with its amount.
  broken.delete(unreadable);
  const opened = await waitForInfraction(stack, unreadable, ['OPEN']);
  expect(opened.amount).toBe(44);
  expect(opened.problem).toBeUndefined();
  expect(opened.transitions.map((transition) => transition.to)).toEqual(['NEEDS_REVIEW', 'OPEN']);

  expect(
    (await stack.admin('POST', `/sandbox/infractions/${unreadable}/resolve`, { status: 'CANCELLED' })).status,
  ).toBe(200);
  expect(
    (await waitForInfraction(stack, unreadable, ['CANCELLED'])).transitions.map((transition) => transition.to),
  ).toEqual(['NEEDS_REVIEW', 'OPEN', 'CANCELLED']);
  await waitForWorkflowCompleted(stack, infractionWorkflowId(unreadable));
  await recordHistory(stack.temporal.client, infractionWorkflowId(unreadable), 'infraction-reviewed-opened-cancelled');
  const syncs = stack.temporal.client.workflow.list({
    query: `WorkflowType = 'medSyncWorkflow' AND ExecutionStatus = 'Completed'`,
  });
  for await (const sync of syncs) {
    if (!sync.workflowId.startsWith(stack.config.MED_SYNC_SCHEDULE_ID)) continue;
    await recordHistory(stack.temporal.client, sync.workflowId, 'med-sync-follows-pages');
    break;
  }
}, 180_000);

test('a defense the provider answers with {message} alone is sent once, and the view shows that answer', async () => {
  const id = await openInfractionOnPaidCashIn(stack, 58);
  await waitForInfraction(stack, id, ['OPEN']);
  const path = `/api/meds/infractions/${id}/defense`;
  const answer = await stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, {
    analise: 'NEGADA',
    justificativa: `Entrega comprovada ${randomUUID().slice(0, 4)}.`,
  });
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({
    status: 'DEFENSE_SUBMITTED',
    defense: { analise: 'NEGADA', providerAnswer: '{"message":"Defesa recebida"}' },
  });
  expect(stack.provider?.count('POST', path)).toBe(1);
  // The same defense again gets the first one's answer; nothing more reaches the provider.
  expect(
    (
      await stack.api('POST', `/v1/infractions/${id}/defense`, {
        analise: 'NEGADA',
        justificativa: answer.body.defense?.justificativa,
      })
    ).status,
  ).toBe(200);
  expect(stack.provider?.count('POST', path)).toBe(1);
});

test('an infraction id that is not a plain token (a backslash) is set aside as a problem of the sync, and every other infraction still syncs', async () => {
  const odd = await openInfractionOnPaidCashIn(stack, 61);
  backslashed.add(odd);
  const plain = await openInfractionOnPaidCashIn(stack, 62);
  // Read on the same pages as the odd one: a query broken by its backslash would fail the whole page.
  expect((await waitForInfraction(stack, plain, ['OPEN'])).amount).toBe(62);
  const problem = await pollUntil(
    async () => {
      for await (const sync of stack.temporal.client.workflow.list({
        query: `WorkflowType = 'medSyncWorkflow' AND ExecutionStatus = 'Completed'`,
      })) {
        const summary = await stack.temporal.client.workflow
          .getHandle<typeof medSyncWorkflow>(sync.workflowId)
          .result();
        const found = summary.problems?.find((text) => text.includes(NOT_A_PLAIN_ID));
        if (found) return found;
      }
      return undefined;
    },
    { timeoutMs: 30_000, intervalMs: 500, description: 'a sync naming the record whose id is not a plain token' },
  );
  expect(problem).toContain('codigo, transacao, situacao');
  // Nothing was started under the odd id, nor under the id the provider did not send.
  expect((await stack.api('GET', `/v1/infractions/${odd}`)).status).toBe(404);
  backslashed.delete(odd);
}, 120_000);
