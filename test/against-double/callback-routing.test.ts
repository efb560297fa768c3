/**
 * The double's callbacks, unsigned and under field names of its own, routed by the names the integrator set
 * (WITHDRAWAL_CALLBACK_FIELDS, CASH_IN_CALLBACK_FIELDS): each reaches its payout or charge at once (answered
 * 200, nothing kept as unmatched), so the outcome is known within seconds, while the periodic check is set a
 * minute away and the first wait for a callback two.
 */
import { randomBytes } from 'node:crypto';
import type { UnmatchedCallbacksResponse } from '../../src/api/callbacks/unmatched-callbacks';
import type { ChargeResponse } from '../../src/api/charges/schemas';
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { pollUntil } from '../../src/util/poll';
import { newExternalId, waitForPayout } from '../helpers/payouts';
import { operationsOnceMade, startAgainstDouble } from './double-stack';
import { forThisFile } from '../helpers/for-this-file';

const stack = forThisFile(() =>
  startAgainstDouble({
    PAYOUT_CALLBACK_WAIT_MS: '120000',
    PAYOUT_POLL_INITIAL_MS: '60000',
    PAYOUT_POLL_MAX_MS: '120000',
  }),
);

/** Well before the first check (60 s after the first wait of 120 s): only a routed callback gets there. */
const PROMPTLY_MS = 20_000;

/** What the engine answered the double's callback about `providerId`. */
async function answerTo(providerId: string | undefined): Promise<number | string> {
  const sent = await pollUntil(
    async () =>
      (await stack.control.callbacks()).find((callback) => (callback.body as { id?: string }).id === providerId),
    {
      timeoutMs: 10_000,
      intervalMs: 100,
      description: `the double's callback about ${providerId ?? '?'}`,
    },
  );
  return sent.answer;
}

async function keptAsUnmatched(providerId: string | undefined): Promise<boolean> {
  const { body } = await stack.engine.api<UnmatchedCallbacksResponse>('GET', '/v1/callbacks/unmatched');
  return body.data.some((entry) => entry.providerId === providerId);
}

test("a payout settled at the double is routed by the double's callback: COMPLETED within seconds", async () => {
  const id = newExternalId('dbl-routed');
  expect(
    (
      await stack.engine.api<PayoutResponse>('POST', '/v1/payouts', {
        externalId: id,
        amount: 12.5,
        pixKey: '52998224725',
        keyType: 'CPF',
      })
    ).status,
  ).toBe(202);
  const [withdrawal] = await operationsOnceMade(stack, id);
  await stack.control.settle(id, 'COMPLETO');

  expect(await answerTo(withdrawal?.id)).toBe(200);
  const payout = await waitForPayout(stack.engine, id, ['COMPLETED'], PROMPTLY_MS);
  expect(payout).toMatchObject({ providerTransactionId: withdrawal?.id, callbacksReceived: 1 });
  expect(await keptAsUnmatched(withdrawal?.id)).toBe(false);
});

test("a charge paid at the double is routed by the double's callback: PAID within seconds", async () => {
  const id = `dblrouted${randomBytes(5).toString('hex')}`;
  expect(
    (
      await stack.engine.api('POST', '/v1/charges', {
        externalId: id,
        amount: 80,
        payer: { name: 'Ana Souza', document: '529.982.247-25' },
      })
    ).status,
  ).toBe(201);
  const [charge] = await stack.control.operations({ clientId: id });
  await stack.control.pay(id);

  expect(await answerTo(charge?.id)).toBe(200);
  const paid = await pollUntil(
    async () => {
      const answer = await stack.engine.api<ChargeResponse>('GET', `/v1/charges/${id}`);
      return answer.body.status === 'PAID' ? answer.body : undefined;
    },
    { timeoutMs: PROMPTLY_MS, intervalMs: 200, description: `charge ${id} to be PAID` },
  );
  expect(paid).toMatchObject({ providerTransactionId: charge?.id });
  expect(await keptAsUnmatched(charge?.id)).toBe(false);
});
