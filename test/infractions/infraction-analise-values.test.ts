/**
 * INFRACTION_ANALISE_VALUES through the real stack: a provider whose `analise` words are not ACEITA and
 * NEGADA (the sandbox plays one with the same setting). The merchant still defends in the engine's words;
 * the provider receives its own, refuses ours, and resolves the contest as a contest.
 */
import type { InfractionResponse } from '../../src/api/infractions/schemas';
import { paymentApiClient } from '../../src/engine/payment-api-client';
import { InvalidRequestError } from '../../src/payment-api/errors';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { openInfractionOnPaidCashIn, waitForInfraction } from '../helpers/infractions';

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness({
    INFRACTION_ANALISE_VALUES: 'PROCEDENTE,IMPROCEDENTE',
    SANDBOX_INFRACTION_RESOLVE_MS: '500',
  });
});
afterAll(() => stack?.close());

test('a contest in the engine’s words reaches the provider in its words and ends REJECTED; the default word is refused there', async () => {
  const id = await openInfractionOnPaidCashIn(stack, 60);
  await waitForInfraction(stack, id, ['OPEN']);

  // The provider with other words refuses the default one: the setting is what makes the defense valid.
  const { INFRACTION_ANALISE_VALUES: _ours, ...withDefaultWords } = stack.config;
  const refused = paymentApiClient(withDefaultWords).submitInfractionDefense(id, {
    analise: 'NEGADA',
    justificativa: 'Entrega comprovada.',
  });
  await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);

  const answer = await stack.api<InfractionResponse>('POST', `/v1/infractions/${id}/defense`, {
    analise: 'NEGADA',
    justificativa: 'Entrega comprovada.',
  });
  expect(answer.status).toBe(200);
  expect(answer.body.status).toBe('DEFENSE_SUBMITTED');
  const atProvider = await stack.admin<{ infraction: { analise?: string } }>('GET', `/sandbox/infractions/${id}`);
  expect(atProvider.body.infraction.analise).toBe('IMPROCEDENTE');

  // The provider reads its word as a contest: REJECTED, the merchant keeps the funds.
  expect((await waitForInfraction(stack, id, ['REJECTED'])).status).toBe('REJECTED');
});
