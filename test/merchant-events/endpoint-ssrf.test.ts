/**
 * Merchant webhook URLs cannot make the engine call into its own network. At registration a URL whose
 * host is a literal non-public address (loopback, private, link-local and cloud metadata, CGNAT, unique
 * local, IPv4-mapped, in any spelling the URL parser reads as one) or a metadata service's name, or whose
 * port is not 443 (or 80 outside production), is refused with 422 naming the rule. A name is judged on
 * what it resolves to when the event is delivered: this machine's own name resolves to an internal
 * address here, and its delivery is refused before any connection, the merchant told only that the
 * endpoint could not be reached (test/merchant-events/endpoint-transport.test.ts proves the refusal with a listener
 * where the connection would land).
 */
import { lookup } from 'node:dns/promises';
import os from 'node:os';
import { DELIVERY_FAILED } from '../../activities/merchant-event-activities';
import type { EventResponse } from '../../src/api/merchant-events/schemas';
import { addressRefusal } from '../../src/net/public-address';
import { pollUntil } from '../../src/util/poll';
import { endpointRuleProblems } from '../../src/merchant-events/endpoint-request';
import { createCharge, payCashIn } from '../helpers/charges';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { startWebhookReceiver, type WebhookReceiver } from '../../tools/stack/webhook-receiver';

const lines: string[] = [];
let stack: EngineHarness;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // WEBHOOK_ALLOW_LOOPBACK unset: the engine as deployed.
  stack = await startEngineHarness(
    { MERCHANT_WEBHOOK_RETRY_INITIAL_MS: '300', MERCHANT_WEBHOOK_RETRY_MAX_MS: '600' },
    { logs: (line) => lines.push(line) },
  );
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

const register = (url: string) =>
  stack.api<{ id: string; code?: string; issues?: { path: string; message: string }[] }>(
    'POST',
    '/v1/webhook-endpoints',
    { url, events: ['charge.paid'], signatureScheme: 'standard-webhooks' },
  );

test.each([
  ['http://127.0.0.1:8233/api/v1/namespaces', /127\.0\.0\.1 is a loopback address/],
  ['http://[::1]/', /::1 is a loopback address/],
  ['http://localhost:7243/', /localhost is this machine/],
  ['http://2130706433/', /127\.0\.0\.1 is a loopback address/],
  ['http://0x7f.1/', /127\.0\.0\.1 is a loopback address/],
  ['http://10.1.2.3/hooks', /10\.1\.2\.3 is not a public address \(private\)/],
  ['http://172.20.0.5/', /172\.20\.0\.5 is not a public address \(private\)/],
  ['http://192.168.0.10/', /192\.168\.0\.10 is not a public address \(private\)/],
  ['http://169.254.169.254/latest/meta-data/', /link-local \(and cloud metadata 169\.254\.169\.254\)/],
  ['http://100.100.100.200/', /carrier-grade NAT/],
  ['http://[fd00:ec2::254]/', /unique local/],
  ['http://[fe80::1]/', /fe80::1 is not a public address \(link-local/],
  ['http://[::ffff:10.0.0.1]/', /IPv4-mapped/],
  ['http://[::ffff:0:10.0.0.1]/', /IPv4-translated/],
  ['http://[64:ff9b:1::10.0.0.1]/', /IPv4\/IPv6 translation, local use/],
  ['http://0.0.0.0/', /"this network"/],
  ['http://metadata.google.internal/computeMetadata/v1/', /cloud metadata service/],
  ['https://merchant.example.com:8443/hooks', /port 8443: only 443 or 80/],
])('registering %s is refused with 422 naming the rule', async (url, rule) => {
  const answer = await register(url);
  expect(answer.status).toBe(422);
  expect(answer.body.code).toBe('ENDPOINT_NOT_ACCEPTABLE');
  expect(answer.body.issues).toEqual([{ path: 'url', message: expect.stringMatching(rule) as unknown }]);
});

test.each([
  'https://merchant.example.com/hooks',
  'http://merchant.example.com/hooks',
  'https://93.184.216.34/hooks',
  'https://[2606:4700:4700::1111]/hooks',
])('a public host on 443 (or 80 outside production) is accepted: %s', async (url) => {
  const answer = await register(url);
  expect(answer.status).toBe(201);
  await stack.api('DELETE', `/v1/webhook-endpoints/${answer.body.id}`);
});

test('production takes https on 443 only', () => {
  const production = { production: true, allowLoopback: false };
  expect(
    endpointRuleProblems(
      { url: 'https://merchant.example.com/hooks', events: ['charge.paid'], signatureScheme: 'standard-webhooks' },
      production,
    ),
  ).toEqual([]);
  expect(
    endpointRuleProblems(
      { url: 'http://merchant.example.com/hooks', events: ['charge.paid'], signatureScheme: 'standard-webhooks' },
      production,
    ),
  ).toEqual([{ path: 'url', message: 'must be https when NODE_ENV=production' }]);
  expect(
    endpointRuleProblems(
      { url: 'https://merchant.example.com:80/hooks', events: ['charge.paid'], signatureScheme: 'standard-webhooks' },
      production,
    ),
  ).toEqual([{ path: 'url', message: 'port 80: only 443' }]);
  // Loopback receivers need the setting, which production refuses (src/config/env.ts).
  expect(
    endpointRuleProblems(
      { url: receiver.url, events: ['charge.paid'], signatureScheme: 'standard-webhooks' },
      { production: false, allowLoopback: true },
    ),
  ).toEqual([]);
});

test("a name that resolves to an internal address is refused when the event is delivered, before any connection; the merchant sees a generic error, the engine's log the reason", async () => {
  const name = os.hostname();
  const { address } = await lookup(name);
  // What this test relies on: a machine's own name resolves to loopback or a private address.
  expect(addressRefusal(address, { allowLoopback: false })).toBeDefined();

  const endpoint = await register(`http://${name}/hooks`);
  expect(endpoint.status).toBe(201);
  const externalId = `ssrf${Date.now()}`;
  await createCharge(stack, externalId, 10);
  await payCashIn(stack, externalId);

  const event = await pollUntil(
    async () => {
      const page = await stack.api<{ data: { id: string }[] }>('GET', '/v1/events?type=charge.paid');
      for (const item of page.body.data) {
        const found = (await stack.api<EventResponse>('GET', `/v1/events/${item.id}`)).body;
        if (found.data.externalId === externalId && (found.deliveries[0]?.attempts.length ?? 0) >= 2) return found;
      }
      return undefined;
    },
    { timeoutMs: 30_000, intervalMs: 300, description: 'two failed attempts of the event' },
  );
  expect(event.deliveries[0]?.attempts.map((attempt) => [attempt.outcome, attempt.error, attempt.httpStatus])).toEqual(
    expect.arrayContaining([['failed', DELIVERY_FAILED, undefined]]),
  );
  expect(new Set(event.deliveries[0]?.attempts.map((attempt) => attempt.error))).toEqual(new Set([DELIVERY_FAILED]));
  const reasons = lines
    .map((line) => JSON.parse(line) as { event?: string; reason?: string })
    .filter((line) => line.event === 'webhook.delivery_failed')
    .map((line) => line.reason);
  // Every attempt was refused on what the name resolved to: none got as far as a connection (refused, reset or timed out).
  // That nothing reaches a listener there is proven in test/merchant-events/endpoint-transport.test.ts, where one listens on the port.
  expect(reasons.length).toBeGreaterThanOrEqual(2);
  expect(new Set(reasons)).toEqual(
    new Set([`refused: ${name} resolves to ${addressRefusal(address, { allowLoopback: false }) ?? ''}`]),
  );
});
