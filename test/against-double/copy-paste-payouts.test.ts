/**
 * Copy-and-paste payouts against the provider double (endpoint 5, whose request and answer the document
 * does not show): the engine sends the double's field names by PIX_COPY_PASTE_REQUEST_FIELDS, reads the
 * double's answer (its transactionId one level down), and follows the payment to its final status.
 */
import { newExternalId, storeCode, waitForPayout } from '../helpers/payouts';
import { forThisFile } from '../helpers/for-this-file';
import { operationsOnceMade, startAgainstDouble } from './double-stack';

const stack = forThisFile(startAgainstDouble);

test('a code with its amount, paid: COMPLETED with the fee charged at request time, one payment at the double', async () => {
  const id = newExternalId('dbl-emv');
  expect(
    (await stack.engine.api('POST', '/v1/payouts', { externalId: id, method: 'pix_copy_paste', emv: storeCode(1990) }))
      .status,
  ).toBe(202);
  const [payment] = await operationsOnceMade(stack, id, 'pix-copy-paste');
  expect(payment).toMatchObject({ amountCents: 1990, state: 'PROCESSING' });
  await stack.control.settle(id, 'COMPLETO');

  const payout = await waitForPayout(stack.engine, id, ['COMPLETED']);
  // R$ 0,75 + 2 % of 19,90 (0,40 half up): the double's fee, from its answer.
  expect(payout).toMatchObject({
    method: 'pix_copy_paste',
    amount: 19.9,
    fee: 1.15,
    total: 21.05,
    providerTransactionId: payment?.id,
  });
  expect(await stack.control.operations({ clientId: id })).toHaveLength(1);
});

test('a code without an amount, paid the amount given and failed by the double: FAILED, one payment', async () => {
  const id = newExternalId('dbl-emv-fail');
  await stack.engine.api('POST', '/v1/payouts', {
    externalId: id,
    method: 'pix_copy_paste',
    emv: storeCode(),
    amount: 10.5,
  });
  const [payment] = await operationsOnceMade(stack, id, 'pix-copy-paste');
  expect(payment?.amountCents).toBe(1050);
  await stack.control.settle(id, 'FALHA', 'Código expirado');

  const payout = await waitForPayout(stack.engine, id, ['FAILED']);
  expect(payout.failureReason).toEqual(expect.stringContaining('FALHA'));
  expect(await stack.control.operations({ clientId: id })).toHaveLength(1);
});
