/**
 * What an accountant books, through the real stack: a FAILED payout answers the fee actually charged (0: the
 * provider refunded amount and fee) in its view and in its `payout.failed` event, and a second request under a
 * taken externalId is a 409 that names the fields that differ, never the stored values.
 */
import { pollUntil } from '../../src/util/poll';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, waitForPayout } from '../helpers/payouts';
import { startWebhookReceiver, type WebhookReceiver } from '../../tools/stack/webhook-receiver';

let stack: EngineHarness;
let receiver: WebhookReceiver;
beforeAll(async () => {
  stack = await startEngineHarness({ WEBHOOK_ALLOW_LOOPBACK: 'true' });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

interface Conflict {
  code: string;
  message: string;
  issues?: { path: string; message: string }[];
}

const submit = (body: Record<string, unknown>) => stack.api<Conflict>('POST', '/v1/payouts', body);

test('a payout the provider fails answers fee 0 and total 0, and its payout.failed event carries the same', async () => {
  expect(
    (await stack.api('POST', '/v1/webhook-endpoints', { url: receiver.url, events: ['payout.failed'] })).status,
  ).toBe(201);
  const externalId = newExternalId('refunded');
  // Amounts ending in .13 fail at the sandbox after it took the request (and its fee): it refunds both.
  expect((await submit({ externalId, amount: 20.13, pixKey: '52998224725', keyType: 'CPF' })).status).toBe(202);
  const payout = await waitForPayout(stack, externalId, ['COMPLETED', 'FAILED', 'NEEDS_REVIEW']);
  expect(payout).toMatchObject({ status: 'FAILED', amount: 20.13, fee: 0, total: 0 });
  // The provider did quote a fee when it took the request: the view is what was charged, not what was quoted.
  expect(payout.transitions.map((transition) => transition.to)).toEqual(['RECEIVED', 'SUBMITTED', 'FAILED']);

  const delivery = await pollUntil(
    () => receiver.received.find((request) => request.event.data.externalId === externalId),
    {
      timeoutMs: 30_000,
      intervalMs: 100,
      description: `payout.failed for ${externalId}`,
    },
  );
  expect(delivery.event).toMatchObject({
    type: 'payout.failed',
    data: { object: 'payout', externalId, status: 'FAILED', amount: 20.13, fee: 0, total: 0 },
  });
});

test('a different request under a taken externalId is a 409 naming the fields that differ, without their stored values', async () => {
  const externalId = newExternalId('conflict');
  const stored = { externalId, amount: 7.5, pixKey: '52998224725', keyType: 'CPF', description: 'Pedido 1' };
  expect((await submit(stored)).status).toBe(202);

  const other = await submit({ ...stored, amount: 7.51, pixKey: '11144477735' });
  expect(other.status).toBe(409);
  expect(other.body.code).toBe('PAYOUT_CONFLICT');
  expect(other.body.issues).toEqual([
    { path: 'amount', message: 'differs from the stored request' },
    { path: 'pixKey', message: 'differs from the stored request' },
  ]);
  expect(other.body.message).toMatch(/amount, pixKey differ from the stored request/);
  expect(JSON.stringify(other.body)).not.toContain('52998224725');

  const rail = await submit({
    externalId,
    method: 'internal',
    amount: 7.5,
    email: 'ana@example.com',
    description: 'Pedido 1',
  });
  expect([rail.status, rail.body.issues?.map((issue) => issue.path)]).toEqual([
    409,
    ['method', 'pixKey', 'keyType', 'email'],
  ]);
  const noDescription = await submit({ ...stored, description: undefined });
  expect([noDescription.status, noDescription.body.issues?.map((issue) => issue.path)]).toEqual([409, ['description']]);
  // The same request again is the same payout.
  expect((await submit(stored)).status).toBe(202);
});
