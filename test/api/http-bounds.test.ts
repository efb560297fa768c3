/**
 * What the engine API answers to a request it cannot take, before anything starts: a body over its
 * limit (413), a body it cannot read (415), a method the path does not have (405 with Allow), and a
 * payout description carrying control or bidirectional characters (400 naming the field).
 */
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '../../src/payment-api/webhook-signature';
import { startEngineApi, type EngineApi } from '../helpers/engine-api';

let api: EngineApi;
beforeAll(async () => {
  api = await startEngineApi();
});
afterAll(() => api?.close());

const payout = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  amount: 10,
  pixKey: '52998224725',
  keyType: 'CPF',
  ...extra,
});
/** A request whose body is `body` and says it is `contentType`. */
const typed = (contentType: string, body: string, method = 'POST') => ({
  method,
  headers: { 'content-type': contentType },
  body,
});
const json = (body: unknown) => typed('application/json', JSON.stringify(body));

test('a body of the wrong Content-Type is refused with 415 in the error shape, on payouts, batch actions and the codec', async () => {
  const plain = await api.fetch('/v1/payouts', typed('text/plain', JSON.stringify(payout('ct-1'))));
  expect(plain.status).toBe(415);
  expect(await plain.json()).toMatchObject({
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    detail: expect.stringContaining('application/json') as unknown,
  });

  const form = await api.fetch('/v1/payout-batches/any/cancel', typed('application/x-www-form-urlencoded', 'reason=x'));
  expect(form.status).toBe(415);
  const codec = await api.fetch('/codec/decode', typed('text/plain', '{"payloads":[]}'));
  expect(codec.status).toBe(415);

  // A POST without a body needs no Content-Type; JSON with a charset is JSON.
  expect((await api.fetch('/v1/payouts/nobody-here/cancel', { method: 'POST' })).status).not.toBe(415);
  const charset = await api.fetch(
    '/v1/payouts',
    typed('application/json; charset=utf-8', JSON.stringify({ externalId: 'x' })),
  );
  expect(charset.status).toBe(400);
});

test('a body over the limit is 413 in the error shape, also on the callback route whatever its Content-Type', async () => {
  const big = 'x'.repeat(300 * 1024);
  const payouts = await api.fetch('/v1/payouts', json(payout('big-1', { description: big })));
  expect(payouts.status).toBe(413);
  expect(await payouts.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });

  const callback = await fetch(`${api.url}/callbacks/withdrawals`, typed('application/octet-stream', big));
  expect(callback.status).toBe(413);
  expect(await callback.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
});

test('a callback is never refused for its Content-Type: the signature decides, then the body', async () => {
  const badlySigned = {
    [WEBHOOK_TIMESTAMP_HEADER]: String(Math.floor(Date.now() / 1000)),
    [WEBHOOK_SIGNATURE_HEADER]: 'v1=' + '0'.repeat(64),
  };
  const refused = await fetch(`${api.url}/callbacks/withdrawals`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', ...badlySigned },
    body: '{}',
  });
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({ code: 'INVALID_SIGNATURE' });
  // Unsigned (a hint, PROVIDER_CALLBACK_SIGNATURES=optional by default) and in text/plain: read, and kept as unmatched.
  const taken = await fetch(
    `${api.url}/callbacks/withdrawals`,
    typed('text/plain', JSON.stringify({ external_id: 'ct-nobody', status: 'COMPLETED' })),
  );
  expect(taken.status).toBe(202);
});

test('a method the path does not have is 405 with Allow, after the API key check', async () => {
  const collection = await api.fetch('/v1/payouts', { method: 'DELETE' });
  expect(collection.status).toBe(405);
  expect(collection.headers.get('allow')).toBe('GET, HEAD, POST');
  expect(await collection.json()).toMatchObject({
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    detail: expect.stringContaining('DELETE') as unknown,
  });

  const one = await api.fetch('/v1/payouts/order-1', typed('application/json', '{}', 'PUT'));
  expect(one.status).toBe(405);
  expect(one.headers.get('allow')).toBe('GET, HEAD');

  // Two routes match /v1/payout-batches/b-1/items (the items page and the actions): the items page, the more specific, answers.
  const items = await api.fetch('/v1/payout-batches/b-1/items', { method: 'DELETE' });
  expect(items.status).toBe(405);
  expect(items.headers.get('allow')).toBe('GET, HEAD');

  expect((await api.fetch('/healthz', { method: 'POST' })).headers.get('allow')).toBe('GET, HEAD');
  expect((await api.fetch('/callbacks/withdrawals', { method: 'GET' })).status).toBe(405);
  expect((await api.fetch('/v1/payouts', { method: 'DELETE', apiKey: null })).status).toBe(401);
  expect((await api.fetch('/v1/nothing-here', { method: 'DELETE' })).status).toBe(404);
});

test.each([
  ['Invoice\u202Efdp.exe', 'U+202E'],
  ['line one\nline two', 'U+000A'],
  ['tab\there', 'U+0009'],
  ['bell\u0007', 'U+0007'],
  ['c1\u0085', 'U+0085'],
  ['isolate\u2067x', 'U+2067'],
  ['mark\u061C', 'U+061C'],
])(
  'a description with a control or bidirectional character (%j) is refused, naming the field and %s',
  async (description, character) => {
    const response = await api.fetch('/v1/payouts', json(payout('desc-1', { description })));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      issues: [{ path: 'description', message: expect.stringContaining(character) }],
    });
  },
);

test('a batch row whose description carries a direction override is refused with its row', async () => {
  const response = await api.fetch(
    '/v1/payout-batches',
    json({
      items: [payout('row-ok', { description: 'March' }), payout('row-bad', { description: 'pay \u202Emoc.live' })],
    }),
  );
  expect(response.status).toBe(422);
  expect(await response.json()).toMatchObject({
    rows: [{ index: 1, externalId: 'row-bad', field: 'description', message: expect.stringContaining('U+202E') }],
  });
});
