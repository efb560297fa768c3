/**
 * Internal transfers against the provider double (endpoint 11): to one of its users, done when answered;
 * to an e-mail that is none of its users, refused with a 404 and its message (rule 3), nothing made.
 * The request carries no id of ours: the double's transfers are told apart by their amounts, each unique here.
 */
import { randomInt } from 'node:crypto';
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { newExternalId, waitForPayout } from '../helpers/payouts';
import { forThisFile } from '../helpers/for-this-file';
import { startAgainstDouble } from './double-stack';

const stack = forThisFile(startAgainstDouble);

/** An amount no other transfer of this run has. */
const uniqueAmount = (): number => Number(`${randomInt(10, 90)}.${String(randomInt(1, 99)).padStart(2, '0')}`);
const transfersOf = async (amount: number) =>
  (await stack.control.operations({ kind: 'internal-transfer' })).filter(
    (operation) => operation.amountCents === Math.round(amount * 100),
  );

test('a transfer to a user of the double: COMPLETED under the id the double answered, one transfer made', async () => {
  const id = newExternalId('dbl-int');
  const amount = uniqueAmount();
  expect(
    (
      await stack.engine.api('POST', '/v1/payouts', {
        externalId: id,
        method: 'internal',
        email: 'Maria@Double.test',
        amount,
        description: 'aluguel',
      })
    ).status,
  ).toBe(202);

  const payout = await waitForPayout(stack.engine, id, ['COMPLETED']);
  expect(payout).toMatchObject({ method: 'internal', amount, fee: 0, total: amount });
  const transfers = await transfersOf(amount);
  expect(transfers).toHaveLength(1);
  expect(transfers[0]).toMatchObject({
    id: payout.providerTransactionId,
    recipientEmail: 'maria@double.test',
    state: 'COMPLETO',
  });
});

test("a transfer to an e-mail the double does not know: FAILED with the double's message, nothing made", async () => {
  const id = newExternalId('dbl-int-unknown');
  const amount = uniqueAmount();
  await stack.engine.api('POST', '/v1/payouts', {
    externalId: id,
    method: 'internal',
    email: 'ninguem@example.com',
    amount,
  });

  // A 404 with a message, nothing created: a clear refusal, not an outcome to review.
  const payout = await waitForPayout(stack.engine, id, ['FAILED', 'NEEDS_REVIEW']);
  expect(payout).toMatchObject({
    status: 'FAILED',
    failureReason: 'o e-mail não pertence a um usuário deste ambiente',
  } satisfies Partial<PayoutResponse>);
  expect(await transfersOf(amount)).toEqual([]);
});
