/**
 * PROVIDER_CALLBACK_SIGNATURES over HTTP through the engine's callback router: `required` refuses an
 * unsigned callback; `optional` (the default) takes it as a hint (budgeted per client address, only for hints that reach
 * an open operation) but still refuses a bad signature; `off` takes any callback as a hint. A callback may
 * name its payout by the provider's id only.
 */
import { randomUUID } from 'node:crypto';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '../../src/payment-api/webhook-signature';
import { postPayoutTo, startEngineApi, type EngineApi } from '../helpers/engine-api';

const apis: EngineApi[] = [];
afterAll(async () => {
  for (const api of apis) await api.close();
});

async function engine(overrides: Record<string, string>): Promise<EngineApi> {
  const api = await startEngineApi(overrides);
  apis.push(api);
  return api;
}

function post(api: EngineApi, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(api.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function payout(api: EngineApi): Promise<string> {
  const externalId = `sig-${randomUUID().slice(0, 8)}`;
  await postPayoutTo(api, externalId);
  return externalId;
}

const badlySigned = {
  [WEBHOOK_TIMESTAMP_HEADER]: String(Math.floor(Date.now() / 1000)),
  [WEBHOOK_SIGNATURE_HEADER]: 'v1=' + '0'.repeat(64),
};

test('required: an unsigned callback is refused with 401', async () => {
  const api = await engine({ PROVIDER_CALLBACK_SIGNATURES: 'required' });
  const externalId = await payout(api);
  const refused = await post(api, '/callbacks/withdrawals', { external_id: externalId, status: 'COMPLETED' });
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({
    code: 'INVALID_SIGNATURE',
    message: expect.stringContaining('missing-headers'),
  });
});

test('optional (the default): an unsigned callback is taken as a hint, a badly signed one refused, past the budget 429 with Retry-After', async () => {
  const api = await engine({ UNSIGNED_CALLBACKS_PER_MINUTE: '3' });
  const externalId = await payout(api);
  expect((await post(api, '/callbacks/withdrawals', { external_id: externalId, status: 'COMPLETED' })).status).toBe(
    200,
  );
  const bad = await post(api, '/callbacks/withdrawals', { external_id: externalId, status: 'COMPLETED' }, badlySigned);
  expect(bad.status).toBe(401);
  expect(await bad.json()).toMatchObject({
    code: 'INVALID_SIGNATURE',
    message: expect.stringContaining('bad-signature'),
  });
  // A signed one is never counted against the unsigned budget.
  expect(
    (await api.sendCallback('/callbacks/withdrawals', JSON.stringify({ external_id: externalId, status: 'COMPLETED' })))
      .status,
  ).toBe(200);
  // Named by the provider's id only, which no payout indexed (no worker ran): kept for operators, not counted.
  const byProviderId = await post(api, '/callbacks/withdrawals', {
    transaction_id: `wd_${randomUUID()}`,
    status: 'FAILED',
  });
  expect(byProviderId.status).toBe(202);
  expect((await post(api, '/callbacks/withdrawals', { external_id: externalId, status: 'COMPLETED' })).status).toBe(
    200,
  );
  expect((await post(api, '/callbacks/withdrawals', { external_id: externalId, status: 'COMPLETED' })).status).toBe(
    200,
  );
  const limited = await post(api, '/callbacks/withdrawals', { external_id: externalId, status: 'COMPLETED' });
  expect(limited.status).toBe(429);
  expect(limited.headers.get('retry-after')).toBe('60');
  // Neither id: nothing to route by. Well-formed JSON all the same: taken, and kept naming the fields looked for.
  const noId = await api.sendCallback(
    '/callbacks/withdrawals',
    JSON.stringify({ id: 'wd_1', state: 'COMPLETO' }),
    `evt-${randomUUID()}`,
  );
  expect(noId.status).toBe(202);
  const unmatched = (await (await api.fetch('/v1/callbacks/unmatched')).json()) as {
    data: { reference: string; signed: boolean; problem?: string; payload?: unknown }[];
  };
  expect(unmatched.data).toContainEqual(
    expect.objectContaining({
      reference: '(no id)',
      signed: true,
      problem:
        'no id to route by: none of external_id, transaction_id, transactionId holds one (WITHDRAWAL_CALLBACK_FIELDS names them); its fields: id, state',
      payload: {},
    }),
  );
});

/** An unsigned callback from `address` (the engine trusts the loopback proxy's X-Forwarded-For). */
const from = (address: string) => ({ 'x-forwarded-for': address });

test('optional: one address flooding unsigned callbacks does not starve the provider’s real callback from another', async () => {
  const api = await engine({
    PROVIDER_CALLBACK_SIGNATURES: 'optional',
    UNSIGNED_CALLBACKS_PER_MINUTE: '3',
    TRUST_PROXY: 'loopback',
  });
  const externalId = await payout(api);
  const flooder = from('203.0.113.7');
  // Garbage costs nothing: ids nobody has, bodies without an id (each kept as unmatched).
  const garbage = await Promise.all([
    ...Array.from({ length: 8 }, () =>
      post(api, '/callbacks/withdrawals', { external_id: `nobody-${randomUUID()}`, status: 'COMPLETED' }, flooder),
    ),
    ...Array.from({ length: 4 }, () => post(api, '/callbacks/withdrawals', { status: 'COMPLETED' }, flooder)),
  ]);
  // The provider's callback for an open payout, from its own address, lands.
  expect(
    (await post(api, '/callbacks/withdrawals', { external_id: externalId, status: 'COMPLETED' }, from('198.51.100.10')))
      .status,
  ).toBe(200);
  expect(garbage.map((answer) => answer.status)).toEqual(Array(12).fill(202));

  // The flooder's own hints that reach the payout are budgeted: three a minute, then 429.
  const hints = [];
  for (let n = 0; n < 4; n += 1)
    hints.push(
      (await post(api, '/callbacks/withdrawals', { external_id: externalId, status: 'COMPLETED' }, flooder)).status,
    );
  expect(hints).toEqual([200, 200, 200, 429]);
  // The provider's address has a budget of its own.
  expect(
    (await post(api, '/callbacks/withdrawals', { external_id: externalId, status: 'COMPLETED' }, from('198.51.100.10')))
      .status,
  ).toBe(200);
});

test('optional: the provider’s addresses (PROVIDER_CALLBACK_ADDRESSES) are not budgeted', async () => {
  const api = await engine({
    PROVIDER_CALLBACK_SIGNATURES: 'optional',
    UNSIGNED_CALLBACKS_PER_MINUTE: '1',
    TRUST_PROXY: 'loopback',
    PROVIDER_CALLBACK_ADDRESSES: '198.51.100.0/24,2001:db8::1',
  });
  const externalId = await payout(api);
  const hint = (address: string) =>
    post(api, '/callbacks/withdrawals', { external_id: externalId, status: 'COMPLETED' }, from(address));
  for (const address of ['198.51.100.10', '198.51.100.200', '198.51.100.10', '2001:db8::1', '2001:db8::1'])
    expect((await hint(address)).status).toBe(200);
  expect((await hint('203.0.113.7')).status).toBe(200);
  expect((await hint('203.0.113.7')).status).toBe(429);
});

test('off: no signature is looked at; any callback is a hint', async () => {
  const api = await engine({ PROVIDER_CALLBACK_SIGNATURES: 'off' });
  const externalId = await payout(api);
  expect(
    (await post(api, '/callbacks/withdrawals', { external_id: externalId, status: 'COMPLETED' }, badlySigned)).status,
  ).toBe(200);
  expect(
    (await post(api, '/callbacks/cash-in', { transactionId: `nobody-${randomUUID().slice(0, 8)}`, status: 'PAID' }))
      .status,
  ).toBe(202);
});
