import fc from 'fast-check';
import { parseBatchJson } from '../../src/batches/batch-json';

const ANY_SIZE = { maxItems: 1_000_000 };

/** What JSON.parse says about the text: the value, or that it throws. */
function jsonParse(text: string): { value: unknown } | 'throws' {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return 'throws';
  }
}

async function sliced(text: string, maxItems = ANY_SIZE.maxItems): Promise<{ value: unknown } | 'throws'> {
  try {
    return { value: await parseBatchJson(text, { maxItems }) };
  } catch (error) {
    if (error instanceof SyntaxError) return 'throws';
    throw error;
  }
}

const batchBody = fc.record(
  {
    batchId: fc.string(),
    items: fc.array(fc.jsonValue(), { maxLength: 30 }),
    extra: fc.jsonValue(),
  },
  { requiredKeys: ['items'] },
);

test('the body read in slices is exactly what JSON.parse reads, whatever the spacing, nesting and escapes', async () => {
  await fc.assert(
    fc.asyncProperty(batchBody, fc.constantFrom(undefined, 0, 2, '\t', '\r\n '), async (body, space) => {
      const text = JSON.stringify(body, null, space);
      expect(await sliced(text)).toEqual(jsonParse(text));
    }),
    { numRuns: 300 },
  );
});

test('a broken body is refused where JSON.parse refuses it, and read the same where it does not', async () => {
  const broken = fc
    .tuple(batchBody, fc.nat(), fc.constantFrom('', ',', '"', '\\', '{', '}', '[', ']', ':', 'x', ' ', '1'))
    .map(([body, at, insert]) => {
      const text = JSON.stringify(body);
      const position = at % (text.length + 1);
      // One character replaced by `insert`, or deleted when `insert` is empty.
      return insert === ''
        ? text.slice(0, position) + text.slice(position + 1)
        : text.slice(0, position) + insert + text.slice(position + 1);
    });
  await fc.assert(
    fc.asyncProperty(broken, async (text) => {
      expect(await sliced(text)).toEqual(jsonParse(text));
    }),
    { numRuns: 1_000 },
  );
});

test('corner cases: not an object at the top, __proto__ and repeated keys, strings ending in backslashes, items not an array', async () => {
  for (const text of [
    '[1, 2]',
    '"items"',
    '',
    '  ',
    '{}',
    '{"items":[]}',
    '{"__proto__":{"polluted":true},"items":[{"__proto__":1}]}',
    '{"items":[1],"items":[2,3]}',
    '{"items":["a\\\\","b\\\\\\"c",{"k":"}]"}],"batchId":"x\\\\"}',
    '{"items":{"0":1}}',
    '{"items":[1,]}',
    '{"items":[01]}',
    '{"items":[tru]}',
    '{"items":[1}',
    '{"items":[1] "batchId":"x"}',
    '{"items":[1]} x',
    '\uFEFF{"items":[1]}',
  ]) {
    expect([text, await sliced(text)]).toEqual([text, jsonParse(text)]);
  }
  const body = (await parseBatchJson('{"__proto__":{"polluted":true},"items":[]}', ANY_SIZE)) as Record<
    string,
    unknown
  >;
  expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  expect(Object.keys(body)).toEqual(['__proto__', 'items']);
});

test('items are read up to the limit and no further: what follows them is not even looked at', async () => {
  const text = `{"batchId":"b","items":[${Array.from({ length: 10 }, (_, index) => `{"n":${index}}`).join(',')}, this is never read`;
  expect(await parseBatchJson(text, { maxItems: 3 })).toEqual({ batchId: 'b', items: [{ n: 0 }, { n: 1 }, { n: 2 }] });
  await expect(parseBatchJson(text, { maxItems: 11 })).rejects.toThrow(SyntaxError);
});

test('a body of thousands of items, read over several slices, is read whole and in order', async () => {
  const body = {
    batchId: 'big',
    items: Array.from({ length: 2_500 }, (_, index) => ({ externalId: `e-${index}`, amount: index / 100 })),
  };
  expect(await parseBatchJson(JSON.stringify(body), ANY_SIZE)).toEqual(body);
});
