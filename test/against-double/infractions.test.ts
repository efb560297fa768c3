/**
 * MED against the provider double: its list (endpoint 7) under an envelope and field names of its own, at
 * most 25 a page whatever perPage asks, read through MED_RECORD_FIELDS; a defense (endpoint 8) in its own
 * `analise` words (INFRACTION_ANALISE_VALUES), answered with `{ "message" }` alone; its resolution followed.
 */
import { randomBytes } from 'node:crypto';
import type { ChargeResponse } from '../../src/api/charges/schemas';
import type { InfractionResponse } from '../../src/api/infractions/schemas';
import { pollUntil } from '../../src/util/poll';
import { waitForInfraction } from '../helpers/infractions';
import { PAGE_CAP } from '../doubles/double-med';
import { forThisFile } from '../helpers/for-this-file';
import { startAgainstDouble } from './double-stack';

// A sync reads every page and starts a workflow per infraction: on a loaded machine that takes its time.
jest.setTimeout(120_000);

const stack = forThisFile(startAgainstDouble);

const reaches = (id: string, statuses: string[]) => waitForInfraction(stack.engine, id, statuses);

/** A charge of the engine, paid at the double: the double's id of that PIX. */
async function paidCharge(amount: number): Promise<string> {
  const externalId = `dblmed${randomBytes(5).toString('hex')}`;
  expect(
    (
      await stack.engine.api('POST', '/v1/charges', {
        externalId,
        amount,
        payer: { name: 'Ana Souza', document: '52998224725' },
      })
    ).status,
  ).toBe(201);
  await stack.control.pay(externalId);
  const paid = await pollUntil(
    async () => {
      const view = (await stack.engine.api<ChargeResponse>('GET', `/v1/charges/${externalId}`)).body;
      return view.status === 'PAID' ? view : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, description: `charge ${externalId} PAID` },
  );
  return paid.providerTransactionId ?? '';
}

test("an infraction the double opens is synced, defended once in the double's words, and followed to REJECTED", async () => {
  const transactionId = await paidCharge(80);
  const opened = await stack.control.openInfraction({ transactionId, amount: 80, reason: 'golpe do falso vendedor' });
  const open = await reaches(opened.infraction_id, ['OPEN']);
  expect(open).toMatchObject({
    infractionId: opened.infraction_id,
    providerStatus: 'WAITING_PSP',
    amount: 80,
    deadline: opened.prazo_defesa,
  });

  const defense = {
    analise: 'NEGADA',
    justificativa: 'Entrega comprovada pelo rastreio.',
    proofs: ['https://example.com/rastreio.pdf'],
  };
  const defended = await stack.engine.api<InfractionResponse>(
    'POST',
    `/v1/infractions/${opened.infraction_id}/defense`,
    defense,
  );
  expect(defended.status).toBe(200);
  expect(defended.body.status).toBe('DEFENSE_SUBMITTED');
  expect((await stack.control.infraction(opened.infraction_id)).defesas).toEqual([
    {
      analise: 'DISCORDO',
      justificativa: defense.justificativa,
      proofs: defense.proofs,
      recebida_em: expect.any(String) as unknown,
    },
  ]);

  await stack.control.resolveInfraction(opened.infraction_id, 'REJECTED');
  const rejected = await reaches(opened.infraction_id, ['REJECTED']);
  expect(rejected.transitions.map((transition) => transition.to)).toEqual(['OPEN', 'DEFENSE_SUBMITTED', 'REJECTED']);
  // Sent once: the double's `{ "message" }` was the answer of a defense received.
  expect((await stack.control.infraction(opened.infraction_id)).defesas).toHaveLength(1);
});

test(`an infraction past the double's first page (it caps pages at ${PAGE_CAP}) reaches the engine`, async () => {
  const opened = [];
  for (let n = 0; n <= PAGE_CAP; n += 1)
    opened.push(
      await stack.control.openInfraction({
        transactionId: `dbl_pix_${randomBytes(6).toString('hex')}`,
        amount: 10 + n,
      }),
    );
  const last = opened.at(-1);
  expect(await reaches(last?.infraction_id ?? '', ['OPEN'])).toMatchObject({
    amount: 10 + PAGE_CAP,
    providerStatus: 'WAITING_PSP',
  });
});
