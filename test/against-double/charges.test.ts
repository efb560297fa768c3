/**
 * PIX charges against the provider double (endpoint 10): its own transactionId and a code of its own,
 * checked by the engine before a payer sees it; paid at the double, or expired there, followed by the
 * double's unsigned callbacks (of its own shape) and endpoint 9.
 */
import { randomBytes } from 'node:crypto';
import type { ChargeCreatedResponse } from '../../src/api/charges/schemas';
import { readEmv } from '../helpers/emv-reader';
import { forThisFile } from '../helpers/for-this-file';
import { startAgainstDouble } from './double-stack';
import { waitForCharge } from '../helpers/charges';

const stack = forThisFile(() => startAgainstDouble({ CASH_IN_LATE_PAYMENT_WINDOW_MS: '5000' }));

const newChargeId = (label: string): string => `${label}${randomBytes(5).toString('hex')}`;

const create = (externalId: string, fields: Record<string, unknown> = {}) =>
  stack.engine.api<ChargeCreatedResponse>('POST', '/v1/charges', {
    externalId,
    amount: 150.25,
    payer: { name: 'Ana Souza', document: '529.982.247-25' },
    description: 'Fatura',
    ...fields,
  });

test("a charge answers the double's code at once; paid at the double: PAID with its fee, one charge at the double", async () => {
  const id = newChargeId('dblpaid');
  const created = await create(id);
  expect(created.status).toBe(201);
  const [charge] = await stack.control.operations({ clientId: id });
  expect(created.body).toMatchObject({
    externalId: id,
    status: 'PENDING',
    amount: 150.25,
    qrcode: charge?.charge?.qrcode,
  });
  expect(readEmv(created.body.qrcode)).toMatchObject({ crcValid: true, amount: '150.25' });

  await stack.control.pay(id);
  const paid = await waitForCharge(stack.engine, id, ['PAID']);
  // 0.99 % of 150,25 (1,487...), half up: the double's fee, from endpoint 9.
  expect(paid).toMatchObject({
    status: 'PAID',
    amount: 150.25,
    fee: 1.49,
    netAmount: 148.76,
    providerTransactionId: charge?.id,
  });
  expect(await stack.control.operations({ clientId: id })).toHaveLength(1);
});

test('a charge the double expires: EXPIRED at its expiry, never paid, one charge at the double', async () => {
  const id = newChargeId('dblexp');
  expect((await create(id, { expiresInSeconds: 3 })).status).toBe(201);
  await stack.control.expire(id);

  const expired = await waitForCharge(stack.engine, id, ['EXPIRED', 'FAILED']);
  expect(expired.status).toBe('EXPIRED');
  expect(expired.paidAt).toBeUndefined();
  // The payer is too late: the double refuses the payment, and no money came in.
  await expect(stack.control.pay(id)).rejects.toThrow(/409/);
  const operations = await stack.control.operations({ clientId: id });
  expect(operations.map((operation) => operation.state)).toEqual(['EXPIRADO']);
});
