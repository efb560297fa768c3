/**
 * Every refusal of the engine API is an RFC 9457 problem (application/problem+json): its type and title from
 * the catalogue, the status, a detail, the request's path as instance (never its query) and the request id
 * of X-Request-Id, with the engine's code, issues and rows kept, whichever layer refused: the API key, the
 * scope, the body parser, the body type, the route, the method, a service.
 */
import { PROBLEM_CATALOGUE, problemType, type ProblemCode } from '../../src/api/problem-catalogue';
import { startEngineApi, type EngineApi } from '../helpers/engine-api';

let api: EngineApi;
beforeAll(async () => {
  api = await startEngineApi({ ENGINE_API_KEYS: 'ops:key-ops:operator+read+payouts:write,reader:key-reader:read' });
});
afterAll(() => api?.close());

async function expectProblem(
  answer: Response,
  code: ProblemCode,
  instance: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const { status, title } = PROBLEM_CATALOGUE[code];
  expect({ status: answer.status, contentType: answer.headers.get('content-type') }).toEqual({
    status,
    contentType: 'application/problem+json; charset=utf-8',
  });
  const requestId = answer.headers.get('x-request-id');
  expect(requestId).toMatch(/\S/);
  const body = (await answer.json()) as { detail?: unknown; message?: unknown };
  expect(body).toEqual({
    type: problemType(code),
    title,
    status,
    detail: expect.any(String),
    instance,
    requestId,
    code,
    message: body.detail,
    ...extra,
  });
}

test('a missing API key, a lacking scope, an unknown route and a method the path lacks', async () => {
  await expectProblem(await api.fetch('/v1/payouts/order-1', { apiKey: null }), 'UNAUTHORIZED', '/v1/payouts/order-1');
  await expectProblem(
    await api.fetch('/v1/payouts/order-1/cancel', { method: 'POST', apiKey: 'key-reader' }),
    'INSUFFICIENT_SCOPE',
    '/v1/payouts/order-1/cancel',
  );
  await expectProblem(await api.fetch('/v1/nothing-here?token=secret-in-query'), 'NOT_FOUND', '/v1/nothing-here');
  await expectProblem(await api.fetch('/v1/payouts', { method: 'DELETE' }), 'METHOD_NOT_ALLOWED', '/v1/payouts');
});

test("the body parser's and the body type's refusals, and a field refused with its issue", async () => {
  const post = (body: string, contentType = 'application/json') =>
    api.fetch('/v1/payouts', { method: 'POST', apiKey: 'key-ops', headers: { 'content-type': contentType }, body });
  await expectProblem(await post('{"externalId":'), 'MALFORMED_JSON', '/v1/payouts');
  await expectProblem(await post('{}', 'text/plain'), 'UNSUPPORTED_MEDIA_TYPE', '/v1/payouts');
  await expectProblem(
    await post(
      JSON.stringify({
        externalId: 'p-1',
        amount: 10,
        pixKey: '52998224725',
        keyType: 'CPF',
        description: 'x'.repeat(300 * 1024),
      }),
    ),
    'PAYLOAD_TOO_LARGE',
    '/v1/payouts',
  );
  await expectProblem(
    await post(JSON.stringify({ externalId: 'p-1', amount: 10, pixKey: '52998224725', keyType: 'CPF', surprise: 1 })),
    'VALIDATION_FAILED',
    '/v1/payouts',
    {
      issues: [{ path: '(root)', message: expect.stringContaining('surprise') as unknown }],
    },
  );
  await expectProblem(
    await post(JSON.stringify({ externalId: 'p-1', amount: 10, pixKey: '52998224724', keyType: 'CPF' })),
    'PAYOUT_NOT_PAYABLE',
    '/v1/payouts',
    {
      issues: [{ path: 'pixKey', message: 'CPF check digits do not match' }],
    },
  );
});

test("a batch's bad rows stay in rows[]; the caller's request id is the problem's", async () => {
  const answer = await api.fetch('/v1/payout-batches', {
    method: 'POST',
    apiKey: 'key-ops',
    headers: { 'content-type': 'application/json', 'x-request-id': 'merchant-req-42' },
    body: JSON.stringify({
      batchId: 'problem-rows',
      items: [{ externalId: 'r-1', amount: 10, pixKey: '52998224724', keyType: 'CPF' }],
    }),
  });
  expect(answer.headers.get('x-request-id')).toBe('merchant-req-42');
  await expectProblem(answer, 'BATCH_INVALID', '/v1/payout-batches', {
    rows: [
      { index: 0, externalId: 'r-1', field: 'pixKey', message: expect.stringContaining('check digits') as unknown },
    ],
  });
});
