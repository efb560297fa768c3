import {
  analysisWordsSchema,
  cardCallbackSchema,
  cardPaymentRequestSchema,
  cashInCallbackSchema,
  cashInRequestSchema,
  cryptoWithdrawalCallbackSchema,
  cryptoWithdrawalRequestSchema,
  pixCopyPasteCallbackSchema,
  infractionDefenseRequestSchema,
  infractionListQuerySchema,
  providerCallbackSchema,
  providerErrorSchema,
  transactionCheckResponseSchema,
  usdtAmountForReais,
  withdrawalCallbackSchema,
  withdrawalRequestSchema,
  withdrawalResponseSchema,
} from '../../src/payment-api/schemas';
import { endpoints } from '../../src/payment-api/endpoints';
import { refusedPaths } from '../helpers/payment-api';
import { cryptoWithdrawalBody } from '../helpers/sandbox';

const sampleWithdrawalResponse = {
  message: 'Withdrawal request received',
  transactionId: 'tx_8f2c1a',
  withdrawal: {
    transaction_id: 'tx_8f2c1a',
    external_id: 'payout-001',
    status: 'PROCESSING',
    amount: 25,
    fee: 1.25,
    total: 26.25,
    type: 'Withdrawal',
  },
};

const validWithdrawal = {
  amount: 25,
  external_id: 'payout-001',
  pix_key: 'maria@example.com',
  key_type: 'EMAIL',
  clientCallbackUrl: 'http://localhost:3000/callbacks/withdrawals',
};

describe('withdrawal', () => {
  test("the spec's sample response parses, totals intact", () => {
    const parsed = withdrawalResponseSchema.parse(sampleWithdrawalResponse);
    expect(parsed.transactionId).toBe('tx_8f2c1a');
    expect(parsed.withdrawal).toMatchObject({ status: 'PROCESSING', amount: 25, fee: 1.25, total: 26.25 });
  });

  test('a response with extra fields parses and keeps them', () => {
    const parsed = withdrawalResponseSchema.parse({
      ...sampleWithdrawalResponse,
      requestId: 'r-1',
      withdrawal: { ...sampleWithdrawalResponse.withdrawal, bank: 'X' },
    });
    expect(parsed).toMatchObject({ requestId: 'r-1', withdrawal: { bank: 'X' } });
  });

  test('either spelling of the transaction id is accepted and normalized', () => {
    const { transactionId, ...rest } = sampleWithdrawalResponse;
    const { transaction_id, ...withdrawal } = sampleWithdrawalResponse.withdrawal;
    const parsed = withdrawalResponseSchema.parse({
      ...rest,
      transaction_id: transactionId,
      withdrawal: { ...withdrawal, transactionId: transaction_id },
    });
    expect(parsed.transactionId).toBe('tx_8f2c1a');
    expect(parsed.withdrawal.transaction_id).toBe('tx_8f2c1a');
    expect(parsed).not.toHaveProperty('transaction_id');
    expect(parsed.withdrawal).not.toHaveProperty('transactionId');
  });

  test('an unknown status passes instead of crashing the engine', () => {
    const parsed = withdrawalResponseSchema.parse({
      ...sampleWithdrawalResponse,
      withdrawal: { ...sampleWithdrawalResponse.withdrawal, status: 'IN_REVIEW' },
    });
    expect(parsed.withdrawal.status).toBe('IN_REVIEW');
  });

  test('a valid request parses', () => {
    expect(withdrawalRequestSchema.safeParse(validWithdrawal).success).toBe(true);
  });

  test('a third decimal is refused with the field path', () => {
    expect(refusedPaths(withdrawalRequestSchema, { ...validWithdrawal, amount: 10.005 })).toEqual(['amount']);
  });

  test('zero, negative and over-the-limit amounts are refused', () => {
    for (const amount of [0, -1, 1_000_000.01])
      expect(refusedPaths(withdrawalRequestSchema, { ...validWithdrawal, amount })).toEqual(['amount']);
    expect(refusedPaths(withdrawalRequestSchema, { ...validWithdrawal, amount: 1_000_000 })).toEqual([]);
  });

  test('a bad key_type, an empty key and a non-http callback URL are refused with their paths', () => {
    expect(refusedPaths(withdrawalRequestSchema, { ...validWithdrawal, key_type: 'CNPJ' })).toEqual(['key_type']);
    expect(refusedPaths(withdrawalRequestSchema, { ...validWithdrawal, pix_key: '  ' })).toEqual(['pix_key']);
    expect(
      refusedPaths(withdrawalRequestSchema, { ...validWithdrawal, clientCallbackUrl: 'ftp://example.com/cb' }),
    ).toEqual(['clientCallbackUrl']);
  });

  test('a misspelled field is refused rather than silently ignored', () => {
    const { external_id, ...rest } = validWithdrawal;
    expect(refusedPaths(withdrawalRequestSchema, { ...rest, externalId: external_id }).sort()).toEqual([
      '',
      'external_id',
    ]);
  });

  test('the final-status callback parses in either id spelling, reason on failure', () => {
    // The sample withdrawal's final status.
    const callback = {
      ...sampleWithdrawalResponse.withdrawal,
      status: 'FAILED',
      reason: 'Invalid key',
      updated_at: '2025-06-15T12:00:00.000Z',
    };
    expect(withdrawalCallbackSchema.parse(callback)).toMatchObject({ status: 'FAILED', reason: 'Invalid key' });
    const { transaction_id, ...rest } = callback;
    expect(withdrawalCallbackSchema.parse({ ...rest, transactionId: transaction_id }).transaction_id).toBe('tx_8f2c1a');
  });
});

describe('callbacks need only what identifies the operation and its status', () => {
  const extra = { gateway_trace: 'x-1', updated_by: 'batch-job' };

  test.each([
    ['withdrawal', withdrawalCallbackSchema, { external_id: 'payout-001', status: 'COMPLETED' }, ['status']],
    ['copy-and-paste', pixCopyPasteCallbackSchema, { external_id: 'paste-001', status: 'FAILED' }, ['status']],
    ['crypto withdrawal', cryptoWithdrawalCallbackSchema, { external_id: 'usdt-001', status: 'COMPLETED' }, ['status']],
    ['cash-in', cashInCallbackSchema, { transactionId: 'cash-001', status: 'PAID' }, ['transactionId', 'status']],
    ['card', cardCallbackSchema, { id: 123, status: 'COMPLETED' }, ['id', 'status']],
  ] as const)(
    'a %s callback with only its id and status parses, unknown fields kept; without them it is refused',
    (_name, schema, minimal, required) => {
      expect(schema.parse({ ...minimal, ...extra })).toEqual({ ...minimal, ...extra });
      expect(refusedPaths(schema, {}).sort()).toEqual([...required].sort());
    },
  );

  test.each([
    ['withdrawal', withdrawalCallbackSchema],
    ['copy-and-paste', pixCopyPasteCallbackSchema],
    ['crypto withdrawal', cryptoWithdrawalCallbackSchema],
  ] as const)(
    "a %s callback names its payout by our external_id or the provider's transaction_id (a number read as text); with neither it is refused",
    (_name, schema) => {
      expect(schema.parse({ transaction_id: 'wd_1', status: 'COMPLETED' })).toMatchObject({ transaction_id: 'wd_1' });
      expect(schema.parse({ transactionId: 981, status: 'COMPLETED' })).toMatchObject({ transaction_id: '981' });
      expect(refusedPaths(schema, { status: 'COMPLETED' })).toEqual(['external_id']);
    },
  );

  test('a field the engine does not need is still read with its type when present', () => {
    expect(
      refusedPaths(withdrawalCallbackSchema, {
        external_id: 'payout-001',
        status: 'COMPLETED',
        updated_at: 'yesterday',
      }),
    ).toEqual(['updated_at']);
  });
});

describe('callbacks routed by type', () => {
  const cardCallback = {
    id: 123,
    type: 'Card',
    status: 'COMPLETED',
    amount: 100,
    netValue: 96.01,
    brand: 'VISA',
    last4: '1111',
    provider: 'acquirer',
    providerTransactionId: 'pt_1',
    providerCustomerId: 'pc_1',
    providerStatus: 'PAID',
    eventType: 'PAYMENT_UPDATED',
    externalReference: 'order-9',
    updatedAt: '2025-06-15T12:00:00.000Z',
    note: 'status_updated',
  };

  test("the card callback of the spec's table parses", () => {
    expect(cardCallbackSchema.parse(cardCallback)).toMatchObject({
      id: 123,
      eventType: 'PAYMENT_UPDATED',
      providerStatus: 'PAID',
    });
  });

  test('the union helper picks the schema by type and names the failing field', () => {
    expect(providerCallbackSchema.parse(cardCallback).type).toBe('Card');
    const deposit = {
      transactionId: 'cash-1',
      status: 'PAID',
      amount: 50,
      type: 'Deposit',
      updatedAt: '2025-06-15T12:00:00Z',
    };
    expect(providerCallbackSchema.parse(deposit)).toMatchObject({ type: 'Deposit', status: 'PAID' });
    expect(refusedPaths(providerCallbackSchema, { ...deposit, amount: 'fifty' })).toEqual(['amount']);
    expect(refusedPaths(providerCallbackSchema, { ...deposit, type: 'Mystery' })).toEqual(['type']);
  });
});

describe('other requests', () => {
  const card = {
    amount: 100,
    installmentCount: 3,
    dueDate: '2025-07-01',
    payer: { name: 'Maria Silva', email: 'maria@example.com', document: '52998224725', phone: '11987654321' },
    creditCard: {
      holderName: 'MARIA SILVA',
      number: '4111111111111111',
      expiryMonth: '07',
      expiryYear: '2030',
      ccv: '123',
    },
  };

  test('a card payment parses; bad month, year, installments, date and missing payer field are refused by path', () => {
    expect(cardPaymentRequestSchema.safeParse(card).success).toBe(true);
    expect(
      refusedPaths(cardPaymentRequestSchema, { ...card, creditCard: { ...card.creditCard, expiryMonth: '7' } }),
    ).toEqual(['creditCard.expiryMonth']);
    expect(
      refusedPaths(cardPaymentRequestSchema, { ...card, creditCard: { ...card.creditCard, expiryYear: '30' } }),
    ).toEqual(['creditCard.expiryYear']);
    expect(refusedPaths(cardPaymentRequestSchema, { ...card, installmentCount: 13 })).toEqual(['installmentCount']);
    expect(refusedPaths(cardPaymentRequestSchema, { ...card, installmentCount: 1.5 })).toEqual(['installmentCount']);
    expect(refusedPaths(cardPaymentRequestSchema, { ...card, dueDate: '01/07/2025' })).toEqual(['dueDate']);
    const { phone: _phone, ...payer } = card.payer;
    expect(refusedPaths(cardPaymentRequestSchema, { ...card, payer })).toEqual(['payer.phone']);
  });

  test('a cash-in split needs both its recipient and its share', () => {
    const cashIn = {
      amount: 50,
      payerName: 'João',
      payerDocument: '52998224725',
      transactionId: 'cash-1',
      projectWebhook: 'https://merchant.example/webhook',
    };
    expect(cashInRequestSchema.safeParse(cashIn).success).toBe(true);
    expect(refusedPaths(cashInRequestSchema, { ...cashIn, splitUser: 'partner@example.com' })).toEqual(['splitTax']);
  });

  test('a crypto wallet must fit its network', () => {
    const crypto = cryptoWithdrawalBody('crypto-1', 'https://merchant.example/cb');
    expect(cryptoWithdrawalRequestSchema.safeParse(crypto).success).toBe(true);
    expect(refusedPaths(cryptoWithdrawalRequestSchema, { ...crypto, network: 'ERC20' })).toEqual(['wallet']);
  });

  test('USDT amounts are decimal strings with 6 places, rounded down', () => {
    expect(usdtAmountForReais(100, 5.4)).toBe('18.518518');
    expect(usdtAmountForReais(0.3, 0.1)).toBe('3.000000');
  });

  test("the defense carries the provider's analise word (INFRACTION_ANALISE_VALUES), never a blank one", () => {
    expect(
      infractionDefenseRequestSchema.safeParse({
        analise: 'NEGADA',
        justificativa: 'Legitimate sale',
        proofs: ['https://files.example/receipt.pdf'],
      }).success,
    ).toBe(true);
    expect(
      infractionDefenseRequestSchema.safeParse({ analise: 'IMPROCEDENTE', justificativa: 'Legitimate sale' }).success,
    ).toBe(true);
    expect(refusedPaths(infractionDefenseRequestSchema, { analise: ' ', justificativa: 'x' })).toEqual(['analise']);
  });

  test('INFRACTION_ANALISE_VALUES is two distinct words, agrees then contests', () => {
    expect(analysisWordsSchema.parse(' PROCEDENTE , IMPROCEDENTE ')).toEqual({
      ACEITA: 'PROCEDENTE',
      NEGADA: 'IMPROCEDENTE',
    });
    for (const bad of ['ACEITA', 'ACEITA,ACEITA', 'ACEITA,', 'A,B,C'])
      expect(analysisWordsSchema.safeParse(bad).success).toBe(false);
  });

  test('infraction paging defaults to page 1 of 20 and caps perPage at 100', () => {
    expect(infractionListQuerySchema.parse({})).toEqual({ page: 1, perPage: 20 });
    expect(infractionListQuerySchema.parse({ page: '2', perPage: '50' })).toEqual({ page: 2, perPage: 50 });
    expect(refusedPaths(infractionListQuerySchema, { perPage: '101' })).toEqual(['perPage']);
  });
});

test('the transaction check tolerates unknown states and the snake_case id', () => {
  const parsed = transactionCheckResponseSchema.parse({
    message: 'ok',
    transaction: {
      transaction_id: 'tx-1',
      value: 25,
      fee: 1.25,
      transactionState: 'ESTORNADO',
      transactionType: 'SAQUE',
      transactionMethod: 'PIX',
      createdAt: '2025-06-15T12:00:00Z',
      updatedAt: '2025-06-15T12:00:05Z',
    },
  });
  expect(parsed.transaction).toMatchObject({ transactionId: 'tx-1', transactionState: 'ESTORNADO' });
});

test('the error body parses, unknown codes included', () => {
  expect(
    providerErrorSchema.parse({
      message: 'Invalid body',
      code: 'VALIDATION_FAILED',
      issues: [{ path: 'amount', message: 'amount must have at most 2 decimal places' }],
    }).issues,
  ).toHaveLength(1);
  expect(providerErrorSchema.safeParse({ message: 'x', code: 'SOMETHING_NEW' }).success).toBe(true);
});

test('the endpoint table covers the spec and names each entry by its key', () => {
  expect(
    Object.values(endpoints)
      .map((endpoint) => endpoint.specNumber)
      .sort(),
  ).toEqual(['1', '2', '3', '4', '4a', '5', '6', '7', '8', '9', '10', '11', '11a', '12', '13', 'extra'].sort());
  for (const [key, endpoint] of Object.entries(endpoints)) expect(endpoint.name).toBe(key);
  expect(endpoints.withdraw.path).toBe('/api/withdrawals/withdraw');
  expect(endpoints.getCardPayment.path).toBe('/api/v1/card/payments/:id');
});
