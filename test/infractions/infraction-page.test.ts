/**
 * Endpoint 7's page and endpoint 8's answer, whose shapes the spec does not show, as the engine reads them:
 * the list wherever the one array is (or where MED_LIST_ENVELOPE says), records by the provider's names
 * (MED_RECORD_FIELDS), a record it cannot read set aside alone with its field names (never its values),
 * pages followed until one is empty or short whatever page size the provider applies, and what the
 * provider answered shown bounded and masked.
 */
import { morePagesAfter, readInfractionPage, UnreadableListError } from '../../src/infractions/infraction-page';
import { MAX_ANSWER_LENGTH, providerAnswerText } from '../../src/infractions/provider-answer';
import { NOT_A_PLAIN_ID } from '../../src/infractions/infraction-id';
import { unreadableProblem } from '../../src/infractions/unreadable-record';
import { DEFAULT_MED_RECORD_FIELDS, medRecordFieldsSchema } from '../../src/payment-api/schemas/infractions';

const record = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  transactionId: `tx-${id}`,
  status: 'WAITING_PSP',
  amount: '80.5',
  createdAt: '2026-01-01T00:00:00Z',
  ...extra,
});
const defaults = { fields: DEFAULT_MED_RECORD_FIELDS };

test('the list is the one array of the answer, at its top or a level down, or the field MED_LIST_ENVELOPE names', () => {
  expect(readInfractionPage({ items: [record(1)], total: 1 }, defaults).records).toEqual([
    expect.objectContaining({
      infractionId: '1',
      transactionId: 'tx-1',
      amountCents: 8050,
      defenseDeadline: '2026-01-08T00:00:00.000Z',
    }),
  ]);
  expect(readInfractionPage({ result: { infracoes: [record(2)], pagina: 1 }, meta: { total: 1 } }, defaults).size).toBe(
    1,
  );
  expect(readInfractionPage([record(3)], defaults).size).toBe(1);
  expect(readInfractionPage({ data: [], total: 0 }, defaults)).toEqual({ size: 0, records: [], unreadable: [] });

  const twoLists = { abertas: [record(4)], encerradas: [record(5)] };
  expect(() => readInfractionPage(twoLists, defaults)).toThrow(
    new UnreadableListError(
      "endpoint 7's answer holds 2 lists where one list of infractions was expected (its fields: abertas, encerradas): MED_LIST_ENVELOPE names the one that holds them",
    ),
  );
  expect(() => readInfractionPage({ message: 'ok' }, defaults)).toThrow(UnreadableListError);
  expect(
    readInfractionPage(twoLists, { ...defaults, envelope: 'encerradas' }).records.map((read) => read.infractionId),
  ).toEqual(['5']);
  // Past the last page a provider may answer the field as null.
  expect(readInfractionPage({ result: { infracoes: null } }, { ...defaults, envelope: 'result.infracoes' }).size).toBe(
    0,
  );
  expect(() => readInfractionPage({ result: 'none' }, { ...defaults, envelope: 'result' })).toThrow(
    'MED_LIST_ENVELOPE names result, which is not a list',
  );
});

test('MED_RECORD_FIELDS maps each engine field to the provider’s name (a|b for either, dots into objects); the others keep theirs', () => {
  const fields = medRecordFieldsSchema.parse(
    'id=codigo, transactionId=transacao|txid, status=situacao, amount=valor.total, createdAt=abertaEm',
  );
  expect(fields).toMatchObject({
    id: ['codigo'],
    transactionId: ['transacao', 'txid'],
    amount: ['valor.total'],
    defenseDeadline: ['defenseDeadline'],
    reason: ['reason'],
  });
  const page = readInfractionPage(
    {
      lista: [
        {
          codigo: 7,
          txid: 'E123',
          situacao: 'ACCEPTED',
          valor: { total: 12 },
          abertaEm: '2026-02-01T10:00:00-03:00',
          reason: 'golpe',
        },
      ],
    },
    { fields },
  );
  expect(page.records).toEqual([
    {
      infractionId: '7',
      transactionId: 'E123',
      providerStatus: 'ACCEPTED',
      reason: 'golpe',
      amountCents: 1200,
      createdAt: '2026-02-01T13:00:00.000Z',
      defenseDeadline: '2026-02-08T13:00:00.000Z',
    },
  ]);
  expect(medRecordFieldsSchema.safeParse('ident=codigo').error?.issues[0]?.message).toMatch(
    /^ident is not one of id, transactionId/,
  );
  expect(medRecordFieldsSchema.safeParse('amount=valor total').error?.issues[0]?.message).toMatch(
    /^amount must be given as amount=<name>/,
  );
  expect(medRecordFieldsSchema.safeParse('amount').success).toBe(false);
});

test('a record the engine cannot read is set aside alone, with its field names and never their values; the others are read', () => {
  const payer = { nomePagador: 'Ana Souza', cpfPagador: '529.982.247-25' };
  const page = readInfractionPage(
    {
      data: [
        record(1),
        { id: 2, transactionId: 'tx-2', status: 'WAITING_PSP', createdAt: '2026-01-01T00:00:00Z', ...payer },
        { foo: 1 },
        record(4),
      ],
    },
    defaults,
  );
  expect(page.size).toBe(4);
  expect(page.records.map((read) => read.infractionId)).toEqual(['1', '4']);
  expect(page.unreadable).toEqual([
    {
      infractionId: '2',
      fields: ['id', 'transactionId', 'status', 'createdAt', 'nomePagador', 'cpfPagador'],
      missing: ['amount'],
    },
    { fields: ['foo'], missing: ['id', 'transactionId', 'status', 'amount', 'createdAt or defenseDeadline'] },
  ]);
  const problem = unreadableProblem(page.unreadable[0] ?? { fields: [], missing: [] });
  expect(problem).toBe(
    "the provider's infraction record could not be read (no amount); its fields: id, transactionId, status, createdAt, nomePagador, cpfPagador. MED_RECORD_FIELDS names the provider's fields",
  );
  expect(problem).not.toMatch(/Ana|529/);
  // An amount with a third decimal is not read as another amount.
  expect(readInfractionPage({ data: [record(5, { amount: 8.165 })] }, defaults).unreadable[0]?.missing).toEqual([
    'amount',
  ]);
});

test('pages are read on while one is neither empty nor shorter than the longest before it, whatever page size the provider applies', () => {
  // Asked 100, the provider gives 25 a page: 25, 25, 7.
  expect([morePagesAfter(25, undefined), morePagesAfter(25, 25), morePagesAfter(7, 25)]).toEqual([true, true, false]);
  expect(morePagesAfter(0, undefined)).toBe(false);
  // One page shorter than asked may still be the provider's page size: the next one says.
  expect(morePagesAfter(3, undefined)).toBe(true);
});

test('what the provider answered is shown bounded, with personal data and secrets masked', () => {
  expect(providerAnswerText({ message: 'Defesa recebida' })).toBe('{"message":"Defesa recebida"}');
  const masked = providerAnswerText({
    message: 'ok',
    payerDocument: '52998224725',
    note: 'contato ana@example.com, CPF 529.982.247-25',
  });
  expect(masked).not.toMatch(/52998224725|ana@example|529\.982/);
  expect(providerAnswerText({ message: 'x'.repeat(10_000) })).toHaveLength(MAX_ANSWER_LENGTH);
});

test('a record whose id is not a plain token (a backslash, a quote, too long) is set aside with its problem, never put in a query; the others are read', () => {
  const odd = ['a\\', "x' OR 'a'='a", 'inf 1', 'a'.repeat(101), 'é1'];
  const page = readInfractionPage(
    { data: [record(1), ...odd.map((id) => ({ ...record(2), id })), record(3)] },
    defaults,
  );
  expect(page.records.map((read) => read.infractionId)).toEqual(['1', '3']);
  expect(page.unreadable).toHaveLength(odd.length);
  for (const unreadable of page.unreadable) {
    expect(unreadable.infractionId).toBeUndefined();
    expect(unreadable.missing).toEqual([NOT_A_PLAIN_ID]);
    expect(unreadableProblem(unreadable)).toContain('could not be read (no id (not a plain token');
  }
  // Ids of letters, digits and _ . : - (numbers too) are read as before.
  expect(
    readInfractionPage(
      { data: [record(4, { id: 'MED_2026.01:a-b' }), record(5, { id: 12345 })] },
      defaults,
    ).records.map((read) => read.infractionId),
  ).toEqual(['MED_2026.01:a-b', '12345']);
});
