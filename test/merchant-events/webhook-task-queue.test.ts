/**
 * Merchant webhook deliveries run on a task queue of their own (MERCHANT_WEBHOOK_TASK_QUEUE): a merchant whose
 * receiver holds every POST takes delivery slots only, and a payout whose provider call needs one of the engine
 * worker's activity slots still completes. Once the receiver answers, the held events are delivered and recorded.
 */
import { createServer, type ServerResponse } from 'node:http';
import { z } from 'zod';
import type { EventResponse } from '../../src/api/merchant-events/schemas';
import { freePort } from '../../src/net/free-port';
import { pollUntil } from '../../src/util/poll';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, postPayout, waitForPayout } from '../helpers/payouts';

/** The engine worker's activity slots: two deliveries held open would take them all if they ran there. */
const ENGINE_ACTIVITY_SLOTS = 2;

/** A merchant's receiver that answers nothing until released: each POST it holds is one delivery in flight. */
async function startHoldingReceiver() {
  const held: { eventId: string; response: ServerResponse }[] = [];
  let released = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { id } = z.object({ id: z.string() }).parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      if (released) res.writeHead(200).end();
      else held.push({ eventId: id, response: res });
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    held,
    release() {
      released = true;
      for (const { response } of held.splice(0)) response.writeHead(200).end();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let stack: EngineHarness;
let receiver: Awaited<ReturnType<typeof startHoldingReceiver>>;
beforeAll(async () => {
  stack = await startEngineHarness(
    // Each POST waits up to a minute for its answer: far longer than a payout is given below.
    { MERCHANT_WEBHOOK_TIMEOUT_MS: '60000', WEBHOOK_ALLOW_LOOPBACK: 'true' },
    { workerTuning: { maxConcurrentActivityTaskExecutions: ENGINE_ACTIVITY_SLOTS } },
  );
  receiver = await startHoldingReceiver();
});
afterAll(async () => {
  receiver?.release();
  await receiver?.close();
  await stack?.close();
});

test('a receiver holding every POST never delays a payout: its provider call gets a slot, and the held events are delivered once it answers', async () => {
  const registered = await stack.api('POST', '/v1/webhook-endpoints', {
    url: receiver.url,
    events: ['payout.completed'],
  });
  expect(registered.status).toBe(201);
  // PIX key payouts call the provider in local activities: they complete, and announce, whatever the slots.
  const announced = Array.from({ length: ENGINE_ACTIVITY_SLOTS }, () => newExternalId('announced'));
  for (const externalId of announced) {
    await postPayout(stack, { externalId, amount: 3.21, pixKey: '52998224725', keyType: 'CPF' });
  }
  await pollUntil(() => receiver.held.length >= ENGINE_ACTIVITY_SLOTS || undefined, {
    timeoutMs: 30_000,
    intervalMs: 100,
    description: `${ENGINE_ACTIVITY_SLOTS} deliveries held by the receiver`,
  });

  // An internal transfer is submitted by a remote activity: it needs one of the engine worker's slots.
  const externalId = newExternalId('internal');
  const created = await stack.api('POST', '/v1/payouts', {
    externalId,
    method: 'internal',
    email: 'recipient@sandbox.test',
    amount: 4.56,
  });
  expect(created.status).toBe(202);
  const payout = await waitForPayout(stack, externalId, ['COMPLETED', 'FAILED', 'NEEDS_REVIEW'], 30_000);
  expect(payout.status).toBe('COMPLETED');

  const heldEvents = receiver.held.map(({ eventId }) => eventId);
  receiver.release();
  for (const eventId of heldEvents) {
    const event = await pollUntil(
      async () => {
        const answer = await stack.api<EventResponse>('GET', `/v1/events/${eventId}`);
        return answer.status === 200 && answer.body.status === 'DELIVERED' ? answer.body : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, description: `event ${eventId} DELIVERED` },
    );
    expect(event.deliveries[0]?.attempts.map((attempt) => [attempt.outcome, attempt.httpStatus])).toEqual([
      ['delivered', 200],
    ]);
  }
});
