/** Ports for throwaway servers come from below the ephemeral range, distinct, and free to bind. */
import net from 'node:net';
import { freePorts, PORTS_FOR_SERVERS } from '../../src/net/free-port';

test('freePorts gives distinct ports below the ephemeral range that a server can then listen on', async () => {
  const ports = await freePorts(8);
  expect(new Set(ports).size).toBe(8);
  for (const port of ports)
    expect(port >= PORTS_FOR_SERVERS.min && port <= PORTS_FOR_SERVERS.max && port < 32_768).toBe(true);
  const servers = await Promise.all(
    ports.map(
      (port) =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(port, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});
