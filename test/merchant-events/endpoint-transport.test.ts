/**
 * The webhook transport's connect-time guard (src/merchant-events/endpoint-transport.ts): a URL is registered on its
 * name alone, and the name is judged on what it resolves to when the event is delivered, in the connection's
 * own lookup. Here the name's DNS answer changed after registration (rebinding): it now resolves to a loopback
 * address where a receiver listens on port 80, the port the delivery connects to, so a guard that let the
 * connection through would be seen there; with loopback allowed, the same delivery does reach it.
 */
import { randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { getDefaultAutoSelectFamily, isIP, setDefaultAutoSelectFamily } from 'node:net';
import { endpointRuleProblems } from '../../src/merchant-events/endpoint-request';
import {
  endpointTransport,
  EndpointRefusedError,
  type EndpointPolicy,
  type ResolveAll,
} from '../../src/merchant-events/endpoint-transport';

const NAME = 'hooks.merchant.example';
const URL_OF_NAME = `http://${NAME}/events`;
/** A loopback address of its own (all of 127.0.0.0/8 is this machine), so that port 80 is free on it whoever else runs tests here. */
const LOOPBACK = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
const deployed: EndpointPolicy = { production: false, allowLoopback: false };

const resolvingTo =
  (...addresses: string[]): ResolveAll =>
  () =>
    Promise.resolve(addresses.map((address) => ({ address, family: isIP(address) })));

const received: string[] = [];
let server: Server;
beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(`${req.method ?? ''} ${req.headers.host ?? ''}${req.url ?? ''}`);
    res.writeHead(204).end();
  });
  // Port 80 is where a delivery to http://<name>/ connects: the guard is proven only if something listens there.
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EACCES'
          ? new Error(`listening on ${LOOPBACK}:80 needs root, or net.ipv4.ip_unprivileged_port_start at 80 or below`)
          : error,
      ),
    );
    server.listen(80, LOOPBACK, resolve);
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const deliver = (policy: EndpointPolicy, resolveAll: ResolveAll): Promise<number> => {
  const transport = endpointTransport(policy, resolveAll);
  return transport
    .post(URL_OF_NAME, { headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5_000 })
    .finally(() => transport.close());
};

test('a registered name that now resolves to loopback is refused at connect time: nothing reaches the receiver listening there', async () => {
  // Registration judges the name without DNS: it is accepted.
  expect(
    endpointRuleProblems({ url: URL_OF_NAME, events: ['charge.paid'], signatureScheme: 'standard-webhooks' }, deployed),
  ).toEqual([]);
  const refused = await deliver(deployed, resolvingTo(LOOPBACK)).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(EndpointRefusedError);
  expect(refused).toMatchObject({ message: `${NAME} resolves to ${LOOPBACK} is a loopback address` });
  expect(received).toEqual([]);

  // The same delivery where loopback receivers are allowed lands on the receiver: it was listening where the refused one would have gone.
  expect(await deliver({ production: false, allowLoopback: true }, resolvingTo(LOOPBACK))).toBe(204);
  expect(received).toEqual([`POST ${NAME}/events`]);
  received.length = 0;
});

test('a name with one loopback address among public ones is refused: no address of it is connected to', async () => {
  const refused = await deliver(deployed, resolvingTo(LOOPBACK, '93.184.216.34')).catch((error: unknown) => error);
  expect(refused).toMatchObject({ message: `${NAME} resolves to ${LOOPBACK} is a loopback address` });
  expect(received).toEqual([]);
  // Listed after a public one, it is refused all the same.
  const second = await deliver(deployed, resolvingTo('93.184.216.34', LOOPBACK)).catch((error: unknown) => error);
  expect(second).toMatchObject({ message: `${NAME} resolves to ${LOOPBACK} is a loopback address` });
});

test.each([
  ['10.1.2.3', 'is not a public address (private)'],
  ['172.16.0.1', 'is not a public address (private)'],
  ['192.168.1.1', 'is not a public address (private)'],
  ['169.254.169.254', 'is not a public address (link-local (and cloud metadata 169.254.169.254))'],
  ['100.100.100.200', 'is not a public address (carrier-grade NAT (and cloud metadata 100.100.100.200))'],
  ['0.0.0.0', 'is not a public address ("this network")'],
  ['::1', 'is a loopback address'],
  ['fd00:ec2::254', 'is not a public address (unique local (and cloud metadata fd00:ec2::254))'],
  ['fe80::1', 'is not a public address (link-local (and cloud metadata 169.254.169.254))'],
  ['::ffff:127.0.0.1', 'is an IPv4-mapped address: use the IPv4 address itself'],
])('a name resolving to %s is refused before any connection', async (address, why) => {
  const refused = await deliver(deployed, resolvingTo(address)).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(EndpointRefusedError);
  expect(refused).toMatchObject({ message: `${NAME} resolves to ${address} ${why}` });
});

test('a name that resolves to nothing is refused, and a resolver failure is the failure the delivery reports', async () => {
  expect(await deliver(deployed, resolvingTo()).catch((error: unknown) => error)).toMatchObject({
    message: `${NAME} resolves to no address`,
  });
  const notFound = Object.assign(new Error(`getaddrinfo ENOTFOUND ${NAME}`), { code: 'ENOTFOUND' });
  expect(await deliver(deployed, () => Promise.reject(notFound)).catch((error: unknown) => error)).toMatchObject({
    code: 'ENOTFOUND',
  });
});

test('where a connection looks up one address (family autoselection off), the name is judged the same, and that address is the one connected to', async () => {
  // Node asks the lookup for every address only while it autoselects the family (its default); off, it asks for one.
  const autoselecting = getDefaultAutoSelectFamily();
  setDefaultAutoSelectFamily(false);
  try {
    expect(await deliver(deployed, resolvingTo(LOOPBACK)).catch((error: unknown) => error)).toMatchObject({
      message: `${NAME} resolves to ${LOOPBACK} is a loopback address`,
    });
    expect(received).toEqual([]);
    expect(await deliver({ production: false, allowLoopback: true }, resolvingTo(LOOPBACK))).toBe(204);
    expect(received).toEqual([`POST ${NAME}/events`]);
    received.length = 0;
  } finally {
    setDefaultAutoSelectFamily(autoselecting);
  }
});
