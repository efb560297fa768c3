/**
 * Secrets through the whole stack, and none in the logs: payouts to an e-mail PIX key and to a CPF, the
 * API key on every request, the sandbox's client credentials and the JWT it issues, signed callbacks
 * (and a forged one), a request refused for its body. Every line of the API, the worker and the sandbox
 * is captured at debug level and searched. The same run shows the request id of the API call on the
 * worker's activity lines.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '../../src/payment-api/webhook-signature';
import { pollUntil } from '../../src/util/poll';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, waitForPayout } from '../helpers/payouts';

const secret = (label: string): string => `${label}-${randomBytes(16).toString('hex')}`;
const SECRETS = {
  apiKey: secret('api-key'),
  clientId: secret('client-id'),
  clientSecret: secret('client-secret'),
  webhookSecret: secret('webhook-secret'),
  adminToken: secret('admin-token'),
};
const EMAIL_KEY = `maria.silva+${randomUUID().slice(0, 6)}@example.com`;
const CPF = '52998224725';
const FORMATTED_CPF = '529.982.247-25';

const lines: string[] = [];
let stack: EngineHarness;

beforeAll(async () => {
  stack = await startEngineHarness(
    {
      ENGINE_API_KEYS: SECRETS.apiKey,
      PAYMENT_API_CLIENT_ID: SECRETS.clientId,
      PAYMENT_API_CLIENT_SECRET: SECRETS.clientSecret,
      WEBHOOK_SECRET: SECRETS.webhookSecret,
      SANDBOX_ADMIN_TOKEN: SECRETS.adminToken,
    },
    { logs: (line) => lines.push(line) },
  );
});
afterAll(() => stack?.close());

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${stack.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRETS.apiKey}`, ...headers },
    body: JSON.stringify(body),
  });
}

test('no secret, key, document or e-mail reaches the logs of the API, the worker or the sandbox; the request id reaches the activities', async () => {
  const requestId = `redaction-${randomUUID()}`;
  const byEmail = newExternalId('redact-email');
  const byCpf = newExternalId('redact-cpf');
  const accepted = await post('/v1/payouts', { externalId: byEmail, amount: 20, pixKey: EMAIL_KEY, keyType: 'EMAIL', description: `to ${EMAIL_KEY}` }, { 'x-request-id': requestId });
  expect(accepted.status).toBe(202);
  expect(accepted.headers.get('x-request-id')).toBe(requestId);
  expect((await post('/v1/payouts', { externalId: byCpf, amount: 21, pixKey: FORMATTED_CPF, keyType: 'CPF' })).status).toBe(202);
  // Refused for its body: the validation error must not carry the key into the logs either.
  expect((await post('/v1/payouts', { externalId: newExternalId('redact-bad'), amount: 1, pixKey: EMAIL_KEY, keyType: 'CPF' })).status).toBe(422);
  // A forged callback, its signature made with a wrong secret.
  const forged = await fetch(`${stack.apiUrl}/callbacks/withdrawals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [WEBHOOK_TIMESTAMP_HEADER]: String(Math.floor(Date.now() / 1000)), [WEBHOOK_SIGNATURE_HEADER]: `v1=${'ab'.repeat(32)}` },
    body: JSON.stringify({ external_id: byEmail, status: 'COMPLETED', pix_key: EMAIL_KEY }),
  });
  expect(forged.status).toBe(401);

  await waitForPayout(stack, byEmail, ['COMPLETED']);
  await waitForPayout(stack, byCpf, ['COMPLETED']);

  // The request id of the POST is on the worker's lines for that payout's activities.
  const activityLines = await pollUntil(
    () => {
      const found = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.event === 'activity.completed' && entry.workflowId === `payout:${byEmail}`);
      return found.length > 0 ? found : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 100, description: 'the activity lines of the e-mail payout' },
  );
  expect(activityLines.every((entry) => entry.requestId === requestId && entry.service === 'worker')).toBe(true);

  const services = new Set(lines.map((line) => (JSON.parse(line) as { service?: string }).service));
  expect([...services]).toEqual(expect.arrayContaining(['engine-api', 'worker', 'sandbox']));
  const requests = lines.map((line) => JSON.parse(line) as { event?: string; req?: { headers?: Record<string, string> } }).filter((entry) => entry.event === 'http.request');
  // pino-http logged the requests, headers and all, with the credentials censored.
  expect(requests.some((entry) => entry.req?.headers?.authorization === '[redacted]')).toBe(true);
  expect(requests.some((entry) => entry.req?.headers?.[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] === '[redacted]')).toBe(true);

  const log = lines.join('\n');
  for (const value of [...Object.values(SECRETS), EMAIL_KEY, CPF, FORMATTED_CPF, stack.config.PAYLOAD_ENCRYPTION_KEY]) expect(log).not.toContain(value);
  expect(log).not.toMatch(/@example\.com/);
  expect(log).not.toMatch(/v1=[0-9a-f]{16,}/);
  expect(log).not.toMatch(/eyJ[\w-]+\.[\w-]+/);
  expect(log).not.toMatch(/Bearer (?!\[redacted\])/i);
});
