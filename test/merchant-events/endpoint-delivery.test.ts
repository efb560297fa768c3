/**
 * What the webhook transport (src/merchant-events/endpoint-transport.ts) does with a merchant's receiver, against
 * real HTTP servers on loopback (allowed here, as in `npm start`): the request as sent, the answer's status as the
 * delivery's outcome, an answer that never ends or never comes, a redirect, and a URL refused before any connection.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  endpointTransport,
  EndpointRefusedError,
  type EndpointPolicy,
} from '../../src/merchant-events/endpoint-transport';
import { freePort } from '../../src/net/free-port';
import { pollUntil } from '../../src/util/poll';

const localReceivers: EndpointPolicy = { production: false, allowLoopback: true };

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const servers: Server[] = [];
afterAll(() =>
  Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())).then(() => undefined)),
  ),
);

/** A receiver on a port of its own; `answer` writes the response once the request's body is read. */
async function receiver(answer: (res: ServerResponse, request: Received) => void) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      answer(res, request);
    });
  });
  servers.push(server);
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { received, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const post = async (url: string, timeoutMs = 30_000, policy = localReceivers) => {
  const transport = endpointTransport(policy);
  try {
    return await transport.post(url, {
      headers: { 'content-type': 'application/json', 'webhook-id': 'evt_1' },
      body: '{"id":"evt_1"}',
      timeoutMs,
    });
  } finally {
    await transport.close();
  }
};

test('the event is POSTed with its headers and body as given, and the answer is its status, 2xx or not', async () => {
  let status = 202;
  const { received, base } = await receiver((res) => res.writeHead(status).end('thanks'));
  expect(await post(`${base}/hooks?merchant=1`)).toBe(202);
  status = 500;
  expect(await post(`${base}/hooks?merchant=1`)).toBe(500);
  expect(received).toHaveLength(2);
  expect(received[0]).toMatchObject({
    method: 'POST',
    url: '/hooks?merchant=1',
    headers: { 'content-type': 'application/json', 'webhook-id': 'evt_1' },
    body: '{"id":"evt_1"}',
  });
});

test('a redirect is the answer, not followed to where the event was not registered', async () => {
  const elsewhere = await receiver((res) => res.writeHead(204).end());
  const { received } = await receiver((res) => res.writeHead(307, { location: `${elsewhere.base}/other` }).end());
  const redirecting = `http://127.0.0.1:${(servers.at(-1)!.address() as AddressInfo).port}/hooks`;
  expect(await post(redirecting)).toBe(307);
  expect(received).toHaveLength(1);
  expect(elsewhere.received).toEqual([]);
});

test('an answer whose body never ends is cut after its first bytes: the status is the outcome, the connection dropped', async () => {
  let closedByEngine = false;
  const { base } = await receiver((res) => {
    // 64 KiB announced (under undici's default limit of 128 KiB, over the transport's 4 KiB), 8 KiB sent, the rest
    // held: an endpoint that would keep the delivery reading until its timeout.
    res.writeHead(200, { 'content-length': String(64 * 1024) });
    res.write(Buffer.alloc(8 * 1024, 'a'));
    res.on('close', () => {
      closedByEngine = !res.writableFinished;
    });
  });
  // The delivery's own timeout is far off: the answer comes back because the transport stopped reading, not because time ran out.
  expect(await post(`${base}/hooks`, 600_000)).toBe(200);
  await pollUntil(() => closedByEngine, {
    timeoutMs: 10_000,
    description: 'the receiver to see the connection dropped',
  });
});

test('an endpoint that never answers fails the delivery within its timeout', async () => {
  const { base, received } = await receiver(() => undefined);
  const failure: unknown = await post(`${base}/hooks`, 300).then(
    (status) => ({ answered: status }),
    (error: unknown) => error,
  );
  expect(failure).toMatchObject({ name: 'TimeoutError' });
  expect(received).toHaveLength(1);
});

test('a URL the rules refuse is refused before any connection, naming the rule', async () => {
  const { base, received } = await receiver((res) => res.writeHead(204).end());
  const deployed: EndpointPolicy = { production: false, allowLoopback: false };
  const refused = await post(`${base}/hooks`, 30_000, deployed).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(EndpointRefusedError);
  expect(refused).toMatchObject({
    code: 'ENDPOINT_REFUSED',
    name: 'EndpointRefusedError',
    message: 'host: 127.0.0.1 is a loopback address',
  });
  expect(received).toEqual([]);
});
