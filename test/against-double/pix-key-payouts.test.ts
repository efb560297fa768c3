/**
 * PIX-key payouts against the provider double: accepted PROCESSING, settled or failed by the double,
 * followed by the engine through the double's unsigned callbacks (of a shape of its own) and endpoint 9.
 * The double de-duplicates nothing, so its count of operations per external_id is the engine's.
 */
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { pollUntil } from '../../src/util/poll';
import { newExternalId, sentTwice, waitForPayout } from '../helpers/payouts';
import { forThisFile } from '../helpers/for-this-file';
import { operationsOnceMade, startAgainstDouble } from './double-stack';

const stack = forThisFile(startAgainstDouble);

const submit = (externalId: string, amount: number) =>
  stack.engine.api<PayoutResponse>('POST', '/v1/payouts', {
    externalId,
    amount,
    pixKey: '52998224725',
    keyType: 'CPF',
  });

test('a payout the double settles: COMPLETED with the fee the double charged, one withdrawal at the double', async () => {
  const id = newExternalId('dbl-pix');
  expect((await submit(id, 25)).status).toBe(202);
  const [withdrawal] = await operationsOnceMade(stack, id);
  await stack.control.settle(id, 'COMPLETO');

  const payout = await waitForPayout(stack.engine, id, ['COMPLETED']);
  // R$ 0,75 + 2 % of 25,00: the double's fee, read from its answer.
  expect(payout).toMatchObject({ amount: 25, fee: 1.25, total: 26.25, providerTransactionId: withdrawal?.id });
  expect(payout.transitions.map((transition) => transition.to)).toEqual(['RECEIVED', 'SUBMITTED', 'COMPLETED']);
  expect(await stack.control.operations({ clientId: id })).toHaveLength(1);

  // Its callback, unsigned and in the double's own shape, was answered: never refused for the missing signature, never a 5xx.
  const callback = await pollUntil(
    async () => (await stack.control.callbacks()).find((sent) => (sent.body as { id?: string }).id === withdrawal?.id),
    { timeoutMs: 10_000, intervalMs: 100, description: 'the callback of the withdrawal answered' },
  );
  expect(callback.body).toEqual({ id: withdrawal?.id, state: 'COMPLETO' });
  expect(callback.answer).toEqual(expect.any(Number));
  expect(callback.answer === 401 || Number(callback.answer) >= 500).toBe(false);
});

test('a payout the double fails: FAILED with a reason, one withdrawal at the double, its money back', async () => {
  const id = newExternalId('dbl-pix-fail');
  await submit(id, 10.13);
  await operationsOnceMade(stack, id);
  await stack.control.settle(id, 'FALHA', 'Conta do recebedor encerrada');

  const payout = await waitForPayout(stack.engine, id, ['FAILED']);
  expect(payout.failureReason).toEqual(expect.stringContaining('FALHA'));
  expect(payout.transitions.map((transition) => transition.to)).toEqual(['RECEIVED', 'SUBMITTED', 'FAILED']);
  const operations = await stack.control.operations({ clientId: id });
  expect(operations.map((operation) => operation.state)).toEqual(['FALHA']);
});

test('the merchant sending the same payout again reaches the double once', async () => {
  const id = newExternalId('dbl-pix-again');
  await sentTwice(() => submit(id, 7.5));
  await operationsOnceMade(stack, id);
  await stack.control.settle(id, 'COMPLETO');
  await waitForPayout(stack.engine, id, ['COMPLETED']);
  expect(await stack.control.operations({ clientId: id })).toHaveLength(1);
});
