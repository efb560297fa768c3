import {
  batchRequestBodySchema,
  batchRequestHash,
  validateBatch,
  type BatchValidation,
} from '../../src/batches/batch-request';
import { SqliteBatchStore } from '../../src/batches/sql-batch-store';
import { rawItems, TEST_KEY, VALID_CPF } from './fixtures';

const noneExist = (): Set<string> => new Set();

function rowsOf(validation: BatchValidation) {
  if (validation.ok) throw new Error('expected the batch to be refused');
  return validation.rows;
}

test('every bad row is named with its index, externalId, field and message; nothing else is accepted', () => {
  const items: unknown[] = rawItems(6);
  items[1] = { externalId: 'order-2', amount: 10.005, pixKey: VALID_CPF, keyType: 'CPF' };
  items[2] = { externalId: 'order-3', amount: 0, pixKey: '123', keyType: 'CPF', note: 'x' };
  items[3] = 'not an object';
  items[4] = { externalId: 'bad id!', amount: 5, pixKey: 'nobody@', keyType: 'EMAIL' };
  const rows = rowsOf(validateBatch(items, noneExist));
  expect(rows).toEqual([
    { index: 1, externalId: 'order-2', field: 'amount', message: 'amount must have at most 2 decimal places' },
    { index: 2, externalId: 'order-3', field: 'amount', message: 'amount must be greater than zero' },
    { index: 2, externalId: 'order-3', field: 'note', message: expect.stringMatching(/Unrecognized key/) },
    // The schema checks the key only when all else is valid; the batch still reports it in the same answer.
    { index: 2, externalId: 'order-3', field: 'pixKey', message: expect.stringMatching(/CPF must have 11 digits/) },
    { index: 3, field: '(row)', message: expect.stringMatching(/expected object/) },
    { index: 4, field: 'externalId', message: expect.stringMatching(/must be 1-64 characters/) },
    { index: 4, field: 'pixKey', message: expect.stringMatching(/EMAIL must be a valid address/) },
  ]);
});

test('a repeated externalId is an error of every occurrence after the first, and ids that exist are errors too', () => {
  const items = rawItems(5);
  items[3] = { ...items[3], externalId: 'order-1' };
  items[4] = { ...items[4], externalId: 'order-1' };
  const asked: string[][] = [];
  const rows = rowsOf(
    validateBatch(items, (ids) => {
      asked.push(ids);
      return new Set(ids.filter((id) => id === 'order-2'));
    }),
  );
  expect(rows).toEqual([
    { index: 1, externalId: 'order-2', field: 'externalId', message: 'externalId already belongs to another payout' },
    { index: 3, externalId: 'order-1', field: 'externalId', message: 'externalId appears earlier in this batch' },
    { index: 4, externalId: 'order-1', field: 'externalId', message: 'externalId appears earlier in this batch' },
  ]);
  expect(asked).toEqual([['order-1', 'order-2', 'order-3']]);
});

test('a valid batch comes back normalized with its total in centavos', () => {
  const validation = validateBatch(
    [
      { externalId: 'a', amount: 0.29, pixKey: '529.982.247-25', keyType: 'CPF' },
      { externalId: 'b', amount: 8.16, pixKey: ' +55 (11) 98765-4321 ', keyType: 'PHONE', description: ' rent ' },
    ],
    noneExist,
  );
  expect(validation).toEqual({
    ok: true,
    totalAmountCents: 845,
    items: [
      { method: 'pix_key', externalId: 'a', amountCents: 29, pixKey: VALID_CPF, keyType: 'CPF' },
      {
        method: 'pix_key',
        externalId: 'b',
        amountCents: 816,
        pixKey: '+5511987654321',
        keyType: 'PHONE',
        description: 'rent',
      },
    ],
  });
});

test('the request hash follows the normalized items and their order', () => {
  const validate = (items: unknown[]) => {
    const validation = validateBatch(items, noneExist);
    if (!validation.ok) throw new Error('invalid');
    return batchRequestHash(validation.items);
  };
  const items = rawItems(3);
  expect(validate(items)).toBe(validate(items.map((item) => ({ ...item, pixKey: '529.982.247-25' }))));
  expect(validate(items)).not.toBe(validate([...items].reverse()));
  expect(validate(items)).not.toBe(
    validate(items.map((item, index) => (index === 2 ? { ...item, amount: 99 } : item))),
  );
});

test('the JSON body: batchId follows the externalId rule, 1 to 100,000 items, nothing else', () => {
  expect(batchRequestBodySchema.safeParse({ batchId: 'march-2025', items: [{}] }).success).toBe(true);
  expect(batchRequestBodySchema.safeParse({ items: [] }).success).toBe(false);
  expect(batchRequestBodySchema.safeParse({ batchId: 'no spaces', items: [{}] }).success).toBe(false);
  expect(batchRequestBodySchema.safeParse({ items: [{}], extra: 1 }).success).toBe(false);
  expect(batchRequestBodySchema.safeParse({ items: new Array(100_001).fill({}) }).success).toBe(false);
});

test('10,000 items are validated against a real store, and a re-submission of the same batch is not refused as duplicates of itself', async () => {
  const store = new SqliteBatchStore({ file: ':memory:', encryptionKey: TEST_KEY });
  try {
    const items = rawItems(10_000);
    const ids = items.map((item) => String(item.externalId));
    // As the API asks: every id of the body at once, before validation.
    const lookup = async (options?: { exceptBatchId: string }) => {
      const taken = await store.existingExternalIds(ids, options);
      return (slice: string[]) => new Set(slice.filter((id) => taken.has(id)));
    };
    const validation = validateBatch(items, await lookup());
    if (!validation.ok) throw new Error(JSON.stringify(validation.rows.slice(0, 3)));
    const requestHash = batchRequestHash(validation.items);
    expect(
      (await store.createBatch({ batchId: 'big', items: validation.items, requestHash, createdAt: new Date() }))
        .outcome,
    ).toBe('created');
    expect(validation.totalAmountCents).toBe(validation.items.reduce((sum, item) => sum + item.amountCents, 0));

    expect(validateBatch(items.slice(0, 3), await lookup()).ok).toBe(false);
    const again = validateBatch(items, await lookup({ exceptBatchId: 'big' }));
    if (!again.ok) throw new Error('re-submission refused');
    expect(
      (
        await store.createBatch({
          batchId: 'big',
          items: again.items,
          requestHash: batchRequestHash(again.items),
          createdAt: new Date(),
        })
      ).outcome,
    ).toBe('exists');
  } finally {
    await store.close();
  }
});
