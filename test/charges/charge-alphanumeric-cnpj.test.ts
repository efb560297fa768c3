/**
 * A company registered from July 2026 has an alphanumeric CNPJ (IN RFB 2.229/2024). Through the real
 * stack (engine API, Temporal, worker, sandbox over HTTP): a charge it pays is created and reaches the
 * provider with the CNPJ unmasked; one whose check digits do not match is refused 422 and goes nowhere.
 */
import { randomBytes } from 'node:crypto';
import type { ChargeCreatedResponse } from '../../src/api/charges/schemas';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness();
});
afterAll(() => stack?.close());

const chargeId = (label: string): string => `${label}${randomBytes(5).toString('hex')}`;
const create = (externalId: string, document: string) =>
  stack.api<ChargeCreatedResponse & { code?: string; issues?: { path: string; message: string }[] }>(
    'POST',
    '/v1/charges',
    {
      externalId,
      amount: 80.4,
      payer: { name: 'Padaria Nova Ltda', document },
    },
  );
const atProvider = async (externalId: string) =>
  (await stack.admin<{ operations: unknown[] }>('GET', `/sandbox/operations?externalId=${externalId}`)).body.operations;

test('a payer with an alphanumeric CNPJ, masked or not: the charge is created at the provider', async () => {
  for (const document of ['12.ABC.345/01DE-35', '12ABC34501DE35']) {
    const id = chargeId('cnpj');
    const created = await create(id, document);
    expect([document, created.status]).toEqual([document, 201]);
    expect(created.body.qrcode).toMatch(/^000201/);
    expect(await atProvider(id)).toHaveLength(1);
  }
});

test('an alphanumeric CNPJ whose check digits do not match is refused 422 naming the field; nothing reaches the provider', async () => {
  const id = chargeId('badcnpj');
  const refused = await create(id, '12.ABC.345/01DE-36');
  expect(refused.status).toBe(422);
  expect(refused.body.issues).toEqual([{ path: 'payer.document', message: 'CNPJ check digits do not match' }]);
  expect(await atProvider(id)).toHaveLength(0);
});
