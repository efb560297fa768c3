/**
 * The engine reads what the provider sends by the fields it needs (docs/provider-integration.md):
 * amounts as JSON numbers or decimal strings, the shapes the spec does not show with only what the
 * engine reads required, the infraction list under another envelope name; what it cannot read is
 * refused naming the raw field, which the transport turns into the error an operator sees.
 */
import {
  cardPaymentDetailsResponseSchema,
  cryptoStatusResponseSchema,
  infractionListResponseSchema,
  transactionCheckResponseSchema,
} from '../../src/payment-api/schemas';
import { checkChargeCode } from '../../src/charges/charge-code';
import { buildBrCode } from '../../src/pix/brcode';
import { crc16CcittFalse as crc16 } from '../../src/pix/crc16';
import { refusedPaths } from '../helpers/payment-api';

test('amounts are read as numbers or decimal strings, a third significant decimal or a word refused naming the field', () => {
  const check = (fee: unknown) =>
    transactionCheckResponseSchema.safeParse({
      transaction: { transactionId: 'tx-1', transactionState: 'COMPLETO', fee },
    });
  expect(check('1.25').data?.transaction.fee).toBe(1.25);
  expect(check('1.250').data?.transaction.fee).toBe(1.25);
  expect(check(1.25).data?.transaction.fee).toBe(1.25);
  expect(
    refusedPaths(transactionCheckResponseSchema, {
      transaction: { transactionId: 'tx-1', transactionState: 'COMPLETO', fee: '1.255' },
    }),
  ).toEqual(['transaction.fee']);
  expect(
    refusedPaths(transactionCheckResponseSchema, {
      transaction: { transactionId: 'tx-1', transactionState: 'COMPLETO', fee: 'one real' },
    }),
  ).toEqual(['transaction.fee']);
});

test('the transaction check needs only the id and the state; no message, no dates', () => {
  expect(
    transactionCheckResponseSchema.parse({ transaction: { transactionId: 77, transactionState: 'PENDENTE' } })
      .transaction,
  ).toEqual({ transactionId: '77', transactionState: 'PENDENTE' });
  expect(refusedPaths(transactionCheckResponseSchema, { transaction: { transactionId: 'tx-1' } })).toEqual([
    'transaction.transactionState',
  ]);
});

test('endpoint 3 needs the id, the status and the amount; the id may be a numeric string', () => {
  expect(
    cardPaymentDetailsResponseSchema.parse({ data: { id: '41', status: 'COMPLETED', amount: '100.00' } }).data,
  ).toMatchObject({ id: 41, amount: 100 });
  expect(refusedPaths(cardPaymentDetailsResponseSchema, { data: { id: 41, status: 'COMPLETED' } })).toEqual([
    'data.amount',
  ]);
});

test('endpoint 13 needs the id and the status; no usdt_amount with 6 places, no createdAt', () => {
  expect(cryptoStatusResponseSchema.parse({ transactionId: 'cw_1', status: 'COMPLETED', fee: '3.47' })).toMatchObject({
    transactionId: 'cw_1',
    fee: 3.47,
  });
  expect(refusedPaths(cryptoStatusResponseSchema, { transactionId: 'cw_1' })).toEqual(['status']);
});

test('endpoint 7: the list under another envelope name, no pagination fields, an infraction with only a deadline', () => {
  const page = infractionListResponseSchema.parse({
    items: [
      { id: 5, transactionId: 'tx-9', status: 'WAITING_PSP', amount: '80', defenseDeadline: '2026-01-08T00:00:00Z' },
    ],
  });
  expect(page.data).toHaveLength(1);
  expect(page.data[0]).toMatchObject({ id: '5', amount: 80 });
  expect(
    refusedPaths(infractionListResponseSchema, {
      data: [{ id: 5, transactionId: 'tx-9', status: 'WAITING_PSP', amount: 80 }],
    }),
  ).toEqual(['data.0.createdAt']);
});

describe('charge codes', () => {
  const withCrc = (body: string) => {
    const text = `${body}6304`;
    return text + crc16(text);
  };
  const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;
  const dynamic = (gui = 'br.gov.bcb.pix', name = 'LOJA EXEMPLO') =>
    withCrc(
      field('00', '01') +
        field('01', '12') +
        field('26', field('00', gui) + field('25', 'pix.example.com/qr/v2/9d36b84f')) +
        field('52', '0000') +
        field('53', '986') +
        field('58', 'BR') +
        field('59', name) +
        field('60', 'SAO PAULO') +
        field('62', field('05', '***')),
    );

  test('a dynamic code (location in 26-25, no amount, txid ***) is accepted; its merchant compared when configured', () => {
    expect(checkChargeCode(dynamic(), { amountCents: 2500 })).toEqual({ ok: true, kind: 'dynamic', txid: '***' });
    expect(checkChargeCode(dynamic(), { amountCents: 2500, merchantName: 'Loja Exemplo' })).toMatchObject({ ok: true });
    expect(checkChargeCode(dynamic(), { amountCents: 2500, merchantName: 'Outra Loja' })).toEqual({
      ok: false,
      problem: 'the code names the merchant "LOJA EXEMPLO", not "Outra Loja"',
    });
  });

  test('another GUI, a bad CRC, a static code without an amount or with another amount: refused', () => {
    expect(checkChargeCode(dynamic('br.gov.bcb.other'), { amountCents: 2500 })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('GUI'),
    });
    expect(checkChargeCode(dynamic().slice(0, -4) + '0000', { amountCents: 2500 })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('CRC'),
    });
    const noAmount = buildBrCode({
      pixKey: 'loja@example.com',
      merchantName: 'Loja',
      merchantCity: 'Sao Paulo',
      txid: 'abc',
    });
    expect(checkChargeCode(noAmount, { amountCents: 2500 })).toEqual({
      ok: false,
      problem: 'the code carries no amount and no location, the charge is R$ 25.00',
    });
    const other = buildBrCode({
      pixKey: 'loja@example.com',
      merchantName: 'Loja',
      merchantCity: 'Sao Paulo',
      txid: 'abc',
      amountCentavos: 2400,
    });
    expect(checkChargeCode(other, { amountCents: 2500 })).toEqual({
      ok: false,
      problem: 'the code carries R$ 24.00, the charge is R$ 25.00',
    });
    expect(checkChargeCode(other, { amountCents: 2400 })).toEqual({ ok: true, kind: 'static', txid: 'abc' });
  });
});
