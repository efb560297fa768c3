/**
 * Events to the merchant through the real stack (engine API → workflows → announcing local activity →
 * event delivery workflow → signed POST to a receiver over HTTP): endpoints and their secrets, events
 * verified with the `standardwebhooks` library (what merchants use) and the engine's own helper, the same
 * webhook-id on every attempt, retries until a 2xx, a receiver that never answers, redelivery, secret
 * rotation (both secrets sign), legacy endpoints (both header sets), and a payout that goes on whatever
 * the receiver does.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import { DELIVERY_FAILED } from '../../activities/merchant-event-activities';
import type { EventResponse } from '../../src/api/merchant-events/schemas';
import { freePort } from '../../src/net/free-port';
import { pollUntil } from '../../src/util/poll';
import { verifyWebhook } from '../../src/payment-api/webhook-signature';
import { verifyMerchantWebhook } from '../../src/merchant-events/merchant-webhook-signature';
import { newStandardWebhookSecret } from '../../src/merchant-events/standard-webhook-signature';
import { chargeWorkflowId } from '../../src/contracts/charge';
import { merchantEventWorkflowId } from '../../src/contracts/merchant-event';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, postPayout, providerDebits, waitForPayout, withdrawalsSent } from '../helpers/payouts';
import { recordHistory } from '../helpers/record-history';
import { deleteWorkflow } from '../helpers/delete-workflow';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../tools/stack/webhook-receiver';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  signatureScheme: string;
  createdAt: string;
  secret?: string;
  previousSecretExpiresAt?: string;
}
interface EventList {
  data: { id: string; type: string; createdAt: string; status: string; attempts: number }[];
  nextCursor?: string;
}

let stack: EngineHarness;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // The receivers of this file listen on loopback: allowed by the setting (never in production).
  // Debits counted against a sandbox that de-duplicates nothing, and the withdrawals at the wire, through a recording proxy.
  stack = await startEngineHarness(
    {
      MERCHANT_WEBHOOK_RETRY_INITIAL_MS: '300',
      MERCHANT_WEBHOOK_RETRY_MAX_MS: '600',
      MERCHANT_WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      SANDBOX_DEDUPLICATE: 'false',
    },
    { providerProxy: true },
  );
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  const { body } = await stack.api<{ data: Endpoint[] }>('GET', '/v1/webhook-endpoints');
  await Promise.all(body.data.map((endpoint) => stack.api('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)));
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

const newChargeId = (label: string): string => `${label}${randomBytes(5).toString('hex')}`;

async function register(
  url: string,
  events: string[],
  signatureScheme?: string,
): Promise<Endpoint & { secret: string }> {
  const answer = await stack.api<Endpoint & { secret: string }>('POST', '/v1/webhook-endpoints', {
    url,
    events,
    ...(signatureScheme ? { signatureScheme } : {}),
  });
  expect(answer.status).toBe(201);
  return answer.body;
}

async function paidCharge(label: string): Promise<string> {
  const externalId = newChargeId(label);
  const created = await stack.api('POST', '/v1/charges', {
    externalId,
    amount: 80.5,
    payer: { name: 'Ana Souza', document: '52998224725' },
  });
  expect(created.status).toBe(201);
  expect((await stack.admin('POST', `/sandbox/cash-ins/${externalId}/pay`, { payerName: 'Ana Souza' })).status).toBe(
    200,
  );
  return externalId;
}

function deliveriesOf(externalId: string, count = 1): Promise<ReceivedWebhook[]> {
  return pollUntil(
    () => {
      const found = receiver.received.filter((request) => request.event.data.externalId === externalId);
      return found.length >= count ? found : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 100, description: `${count} deliveries about ${externalId}` },
  );
}

/** The delivery's history once its workflow has ended: the read model says DELIVERED a task before the end. */
async function recordFinished(eventId: string, name: string): Promise<void> {
  await stack.temporal.client.workflow.getHandle(merchantEventWorkflowId(eventId)).result();
  await recordHistory(stack.temporal.client, merchantEventWorkflowId(eventId), name);
}

/** What a merchant's Standard Webhooks library answers for a delivery: the event it verified, or its error. */
function libraryVerifies(delivery: ReceivedWebhook, secret: string): unknown {
  const headers = Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)]));
  try {
    return new Webhook(secret).verify(delivery.rawBody, headers);
  } catch (error) {
    return error instanceof Error ? error.message : error;
  }
}

function eventWhere(
  eventId: string,
  done: (event: EventResponse) => boolean,
  description: string,
): Promise<EventResponse> {
  return pollUntil(
    async () => {
      const answer = await stack.api<EventResponse>('GET', `/v1/events/${eventId}`);
      return answer.status === 200 && done(answer.body) ? answer.body : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, description },
  );
}

test('an endpoint shows its secret once; list, read, rotate and delete; bad registrations are refused and named', async () => {
  const created = await register('https://merchant.example.com/hooks', [
    'payout.completed',
    'payout.completed',
    'charge.paid',
  ]);
  // Standard Webhooks: whsec_ and the base64 of 32 random bytes, which the libraries decode.
  expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  expect(created.id).toMatch(/^we_[0-9a-f]{24}$/);
  expect(created.events).toEqual(['payout.completed', 'charge.paid']);
  expect(created.signatureScheme).toBe('standard-webhooks');

  const listed = await stack.api<{ data: Endpoint[] }>('GET', '/v1/webhook-endpoints');
  expect(listed.body.data).toEqual([
    {
      id: created.id,
      url: created.url,
      events: created.events,
      signatureScheme: 'standard-webhooks',
      createdAt: created.createdAt,
    },
  ]);
  expect(JSON.stringify(listed.body)).not.toContain(created.secret);
  const read = await stack.api<Endpoint>('GET', `/v1/webhook-endpoints/${created.id}`);
  expect(read.body).not.toHaveProperty('secret');

  const rotated = await stack.api<
    Endpoint & { secret: string; previousSecretExpiresAt: string; secretRotatedAt: string }
  >('POST', `/v1/webhook-endpoints/${created.id}/rotate-secret`);
  expect(rotated.status).toBe(200);
  expect(rotated.body.secret).not.toBe(created.secret);
  expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.parse(rotated.body.secretRotatedAt)).toBe(86_400_000);

  const refused = await stack.api<{ code: string; issues: { path: string }[] }>('POST', '/v1/webhook-endpoints', {
    url: 'https://merchant.example.com/hooks',
    events: ['payout.done'],
  });
  expect(refused.status).toBe(400);
  expect(refused.body.issues.map((issue) => issue.path)).toEqual(['events.0']);
  const withCredentials = await stack.api<{ code: string; issues: { path: string }[] }>(
    'POST',
    '/v1/webhook-endpoints',
    { url: 'https://user:pw@merchant.example.com/', events: ['charge.paid'] },
  );
  expect(withCredentials.status).toBe(422);
  expect(withCredentials.body.code).toBe('ENDPOINT_NOT_ACCEPTABLE');
  expect(
    (await stack.api('POST', '/v1/webhook-endpoints', { url: 'ftp://merchant.example.com/', events: ['charge.paid'] }))
      .status,
  ).toBe(400);
  const unknownScheme = await stack.api<{ issues: { path: string }[] }>('POST', '/v1/webhook-endpoints', {
    url: 'https://merchant.example.com/',
    events: ['charge.paid'],
    signatureScheme: 'v2',
  });
  expect([unknownScheme.status, unknownScheme.body.issues.map((issue) => issue.path)]).toEqual([
    400,
    ['signatureScheme'],
  ]);

  expect((await stack.api('DELETE', `/v1/webhook-endpoints/${created.id}`)).status).toBe(204);
  expect((await stack.api('GET', `/v1/webhook-endpoints/${created.id}`)).status).toBe(404);
  expect((await stack.api('DELETE', `/v1/webhook-endpoints/${created.id}`)).status).toBe(404);
});

test('a paid charge reaches the endpoint signed per Standard Webhooks; the standardwebhooks library verifies it; the event is listed with its attempt', async () => {
  const endpoint = await register(receiver.url, ['charge.paid']);
  const externalId = await paidCharge('signed');
  const [delivery] = await deliveriesOf(externalId);
  if (!delivery) throw new Error('no delivery');

  expect(delivery.event).toMatchObject({
    type: 'charge.paid',
    data: { object: 'charge', externalId, status: 'PAID', amount: 80.5, fee: expect.any(Number) },
  });
  expect(delivery.headers['webhook-id']).toBe(delivery.event.id);
  expect(delivery.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  expect(Object.keys(delivery.headers).filter((name) => name.startsWith('x-webhook'))).toEqual([]);
  expect(libraryVerifies(delivery, endpoint.secret)).toEqual(JSON.parse(delivery.rawBody.toString('utf8')));
  expect(
    libraryVerifies(
      { ...delivery, rawBody: Buffer.from(delivery.rawBody.toString('utf8').replace('"PAID"', '"FAILED"')) },
      endpoint.secret,
    ),
  ).toBe('No matching signature found');
  expect(
    verifyMerchantWebhook({ rawBody: delivery.rawBody, headers: delivery.headers, secret: endpoint.secret }),
  ).toEqual({ ok: true });
  expect(
    verifyMerchantWebhook({ rawBody: delivery.rawBody, headers: delivery.headers, secret: newStandardWebhookSecret() }),
  ).toEqual({ ok: false, reason: 'bad-signature' });
  const tampered = Buffer.from(delivery.rawBody.toString('utf8').replace('"PAID"', '"FAILED"'));
  expect(verifyMerchantWebhook({ rawBody: tampered, headers: delivery.headers, secret: endpoint.secret })).toEqual({
    ok: false,
    reason: 'bad-signature',
  });

  const event = await eventWhere(delivery.event.id, (found) => found.status === 'DELIVERED', 'the event DELIVERED');
  expect(event.data).toEqual(delivery.event.data);
  expect(event.deliveries).toEqual([
    {
      endpointId: endpoint.id,
      status: 'DELIVERED',
      attempts: [expect.objectContaining({ number: 1, outcome: 'delivered', httpStatus: 200 })],
    },
  ]);
  const listed = await pollUntil(
    async () => {
      const page = await stack.api<EventList>('GET', '/v1/events?type=charge.paid');
      return page.body.data.find((item) => item.id === delivery.event.id && item.status === 'DELIVERED');
    },
    { timeoutMs: 10_000, intervalMs: 200, description: 'the event listed DELIVERED' },
  );
  expect(listed).toEqual({
    id: delivery.event.id,
    type: 'charge.paid',
    createdAt: delivery.event.createdAt,
    status: 'DELIVERED',
    attempts: 1,
  });
  expect((await stack.api<EventList>('GET', '/v1/events?type=charge.expired')).body.data).toEqual([]);
  await recordHistory(stack.temporal.client, chargeWorkflowId(externalId), 'charge-paid-announced');
  expect((await stack.api('GET', '/v1/events?type=charge.nope')).status).toBe(400);
  expect((await stack.api('GET', '/v1/events/evt_000000000000000000000000')).status).toBe(404);
});

test('a receiver answering 500 twice then 200 gets the event on the third attempt, the same event each time', async () => {
  const endpoint = await register(receiver.url, ['charge.paid']);
  receiver.answerNext([500, 500]);
  const externalId = await paidCharge('retried');
  const deliveries = await deliveriesOf(externalId, 3);
  expect(new Set(deliveries.map((delivery) => delivery.rawBody.toString('utf8'))).size).toBe(1);
  // The same webhook-id on every attempt, each attempt signed afresh and verified by the library.
  expect(new Set(deliveries.map((delivery) => delivery.headers['webhook-id']))).toEqual(
    new Set([deliveries[0]?.event.id]),
  );
  for (const delivery of deliveries)
    expect(libraryVerifies(delivery, endpoint.secret)).toMatchObject({ id: delivery.event.id });
  const eventId = deliveries[0]?.event.id ?? '';
  const event = await eventWhere(eventId, (found) => found.status === 'DELIVERED', 'the event DELIVERED');
  expect(event.deliveries[0]?.attempts.map((attempt) => [attempt.number, attempt.outcome, attempt.httpStatus])).toEqual(
    [
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'delivered', 200],
    ],
  );
  await recordFinished(eventId, 'merchant-event-own-queue-delivered-third-attempt');
});

test('a receiver down for the whole test: the event is listed with its failed attempts and the payout completes as ever, debited once', async () => {
  const down = await register(`http://127.0.0.1:${await freePort()}/hooks`, ['payout.completed']);
  const externalId = newExternalId('down');
  await postPayout(stack, { externalId, amount: 12.34, pixKey: '52998224725', keyType: 'CPF' });
  const payout = await waitForPayout(stack, externalId, ['COMPLETED', 'FAILED', 'NEEDS_REVIEW']);
  expect(payout.status).toBe('COMPLETED');
  expect(payout.transitions.map((transition) => transition.to)).toEqual(['RECEIVED', 'SUBMITTED', 'COMPLETED']);
  expect(withdrawalsSent(stack, externalId)).toBe(1);
  expect(await providerDebits(stack, externalId)).toBe(1);

  const listed = await pollUntil(
    async () => {
      const page = await stack.api<EventList>('GET', '/v1/events?type=payout.completed');
      const events = await Promise.all(
        page.body.data.map(async (item) => (await stack.api<EventResponse>('GET', `/v1/events/${item.id}`)).body),
      );
      const ours = events.find((event) => event.data.externalId === externalId);
      const item = page.body.data.find((entry) => entry.id === ours?.id);
      return item && item.attempts >= 3 ? item : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 300, description: 'the event listed with 3 attempts' },
  );
  expect(listed.status).toBe('PENDING');
  const event = (await stack.api<EventResponse>('GET', `/v1/events/${listed.id}`)).body;
  const [delivery] = event.deliveries;
  expect(delivery?.status).toBe('PENDING');
  // One generic error for the merchant; the reason (ECONNREFUSED) is in the engine's log only.
  expect(
    delivery?.attempts.filter((attempt) => attempt.outcome !== 'failed' || attempt.error !== DELIVERY_FAILED),
  ).toEqual([]);
  expect(Date.parse(delivery?.nextAttemptAt ?? '')).not.toBeNaN();
  expect((await stack.api<{ status: string }>('GET', `/v1/payouts/${externalId}`)).body.status).toBe('COMPLETED');

  // Deleting the endpoint stops its delivery.
  await stack.api('DELETE', `/v1/webhook-endpoints/${down.id}`);
  const stopped = await eventWhere(listed.id, (found) => found.status === 'CANCELLED', 'the event CANCELLED');
  expect(stopped.deliveries[0]?.status).toBe('ENDPOINT_DELETED');
});

test('redelivery sends a delivered event again with the same id; after a rotation both secrets sign', async () => {
  const endpoint = await register(receiver.url, ['charge.paid']);
  const externalId = await paidCharge('again');
  const [first] = await deliveriesOf(externalId);
  const eventId = first?.event.id ?? '';
  await eventWhere(eventId, (found) => found.status === 'DELIVERED', 'the event DELIVERED');

  const rotated = await stack.api<{ secret: string }>('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`);
  const redelivered = await stack.api<EventResponse>('POST', `/v1/events/${eventId}/redeliver`);
  expect(redelivered.status).toBe(202);
  expect(redelivered.body.status).toBe('PENDING');
  const [, second] = await deliveriesOf(externalId, 2);
  if (!second) throw new Error('no second delivery');
  expect(second.event.id).toBe(eventId);
  expect(second.rawBody.equals(first?.rawBody ?? Buffer.alloc(0))).toBe(true);
  expect(second.headers['webhook-id']).toBe(eventId);
  expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(2);
  // A receiver verifies with whichever secret it has while both sign.
  expect(libraryVerifies(second, rotated.body.secret)).toMatchObject({ id: eventId });
  expect(libraryVerifies(second, endpoint.secret)).toMatchObject({ id: eventId });
  expect(
    verifyMerchantWebhook({ rawBody: second.rawBody, headers: second.headers, secret: rotated.body.secret }),
  ).toEqual({ ok: true });
  expect(verifyMerchantWebhook({ rawBody: second.rawBody, headers: second.headers, secret: endpoint.secret })).toEqual({
    ok: true,
  });

  const event = await eventWhere(
    eventId,
    (found) => found.status === 'DELIVERED' && (found.deliveries[0]?.attempts.length ?? 0) === 2,
    'the redelivery recorded',
  );
  expect(event.deliveries[0]?.attempts.map((attempt) => attempt.outcome)).toEqual(['delivered', 'delivered']);
  await recordFinished(eventId, 'merchant-event-own-queue-redelivered');
});

test('an event outlives its workflows: once Temporal deleted the charge and the delivery (as retention does), the event is still listed and read with its deliveries, and a redelivery sends it again', async () => {
  const endpoint = await register(receiver.url, ['charge.paid']);
  const externalId = await paidCharge('retained');
  const [first] = await deliveriesOf(externalId);
  const eventId = first?.event.id ?? '';
  const delivered = await eventWhere(eventId, (found) => found.status === 'DELIVERED', 'the event DELIVERED');
  await pollUntil(
    async () =>
      (await stack.temporal.client.workflow.getHandle(merchantEventWorkflowId(eventId)).describe()).status.name ===
      'RUNNING'
        ? undefined
        : true,
    { timeoutMs: 30_000, intervalMs: 200, description: 'the delivery workflow closed' },
  );
  await recordHistory(stack.temporal.client, merchantEventWorkflowId(eventId), 'merchant-event-delivered-recorded');

  await Promise.all([
    deleteWorkflow(stack.temporal.client, chargeWorkflowId(externalId)),
    deleteWorkflow(stack.temporal.client, merchantEventWorkflowId(eventId)),
  ]);

  const read = await stack.api<EventResponse>('GET', `/v1/events/${eventId}`);
  expect(read.status).toBe(200);
  expect(read.body).toEqual(delivered);
  const page = await stack.api<EventList>('GET', '/v1/events?type=charge.paid&limit=500');
  expect(page.body.data.find((item) => item.id === eventId)).toEqual({
    id: eventId,
    type: 'charge.paid',
    createdAt: first?.event.createdAt,
    status: 'DELIVERED',
    attempts: 1,
  });

  const redelivered = await stack.api<EventResponse>('POST', `/v1/events/${eventId}/redeliver`);
  expect([redelivered.status, redelivered.body.status]).toEqual([202, 'PENDING']);
  const [, second] = await deliveriesOf(externalId, 2);
  expect(second?.event.id).toBe(eventId);
  const again = await eventWhere(
    eventId,
    (found) => found.status === 'DELIVERED' && (found.deliveries[0]?.attempts.length ?? 0) === 2,
    'the redelivery recorded',
  );
  expect(again.deliveries).toEqual([expect.objectContaining({ endpointId: endpoint.id, status: 'DELIVERED' })]);
});

test('a legacy endpoint keeps its X-Webhook-* headers, with the Standard Webhooks set beside them for the deprecation window', async () => {
  const endpoint = await register(receiver.url, ['charge.paid'], 'legacy');
  expect(endpoint.signatureScheme).toBe('legacy');
  const externalId = await paidCharge('legacy');
  const [delivery] = await deliveriesOf(externalId);
  if (!delivery) throw new Error('no delivery');
  expect(delivery.headers['x-webhook-id']).toBe(delivery.event.id);
  // What a receiver written for the legacy scheme checks: v1=<hex> over "<timestamp>.<body>" with the secret's text.
  const legacy = verifyWebhook({
    secrets: [endpoint.secret],
    rawBody: delivery.rawBody,
    timestampHeader: delivery.headers['x-webhook-timestamp'],
    signatureHeader: delivery.headers['x-webhook-signature'],
    nowSeconds: Math.floor(Date.now() / 1000),
  });
  expect(legacy).toEqual({ ok: true });
  expect(delivery.headers['webhook-id']).toBe(delivery.event.id);
  expect(libraryVerifies(delivery, endpoint.secret)).toMatchObject({ id: delivery.event.id });
});

test('a finished batch announces payout_batch.completed with its counts, and each of its payouts payout.completed', async () => {
  await register(receiver.url, ['payout.completed', 'payout_batch.completed']);
  const batchId = `hooks-${randomBytes(4).toString('hex')}`;
  const items = [1, 2, 3].map((n) => ({
    externalId: `${batchId}-${n}`,
    amount: 10 + n,
    pixKey: '52998224725',
    keyType: 'CPF',
  }));
  expect((await stack.api('POST', '/v1/payout-batches', { batchId, items })).status).toBe(202);

  const [batchEvent] = await pollUntil(
    () => {
      const found = receiver.received.filter(
        (request) => request.event.type === 'payout_batch.completed' && request.event.data.batchId === batchId,
      );
      return found.length > 0 ? found : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 200, description: `payout_batch.completed for ${batchId}` },
  );
  expect(batchEvent?.event.data).toEqual({
    object: 'payout_batch',
    batchId,
    status: 'DONE',
    total: 3,
    completed: 3,
    failed: 0,
    cancelled: 0,
    needsReview: 0,
    totalAmount: 36,
    paidAmount: 36,
  });

  for (const item of items) {
    const [payoutEvent] = await deliveriesOf(item.externalId);
    expect(payoutEvent?.event).toMatchObject({
      type: 'payout.completed',
      data: {
        object: 'payout',
        externalId: item.externalId,
        method: 'pix_key',
        status: 'COMPLETED',
        amount: item.amount,
        batchId,
      },
    });
    expect(JSON.stringify(payoutEvent?.event)).not.toContain('52998224725');
  }
}, 90_000);

test('an endpoint answering 200 with an endless body is delivered at once: the engine reads a few KB of an answer, never waits for the rest', async () => {
  // It keeps the id of each event it is sent (the body names it), then answers without end.
  const sent: string[] = [];
  const endless = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      const { id } = z.object({ id: z.string() }).parse(JSON.parse(Buffer.concat(body).toString('utf8')));
      sent.push(id);
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const timer = setInterval(() => res.write(chunk), 5);
      res.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
  try {
    const endpoint = await register(`http://127.0.0.1:${(endless.address() as AddressInfo).port}/hooks`, [
      'charge.paid',
    ]);
    const externalId = await paidCharge('endless');
    const eventId = await pollUntil(() => Promise.resolve(sent[0]), {
      timeoutMs: 30_000,
      intervalMs: 100,
      description: 'an event at the endless endpoint',
    });
    const event = await eventWhere(
      eventId,
      (found) => found.status === 'DELIVERED',
      'the event delivered to the endless endpoint',
    );
    expect(event.data.externalId).toBe(externalId);
    const [attempt] = event.deliveries.find((delivery) => delivery.endpointId === endpoint.id)?.attempts ?? [];
    expect(attempt).toMatchObject({ outcome: 'delivered', httpStatus: 200 });
    // Delivered (not timed out) and within MERCHANT_WEBHOOK_TIMEOUT_MS, which reading the whole answer would have run into.
    expect(attempt?.durationMs).toBeLessThan(stack.config.MERCHANT_WEBHOOK_TIMEOUT_MS);
  } finally {
    endless.closeAllConnections();
    await new Promise((resolve) => endless.close(resolve));
  }
});
