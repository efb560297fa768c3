/** Ports for throwaway servers come from below the ephemeral range, distinct, and free to bind. */
import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { z } from 'zod';
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

test('a port handed out is not handed out again while its server may still be starting, even to another process', async () => {
  const first = new Set(await freePorts(200));
  const [again, other] = await Promise.all([freePorts(200), freePortsInAnotherProcess(200)]);
  expect(again.filter((port) => first.has(port))).toEqual([]);
  expect(other.filter((port) => first.has(port) || again.includes(port))).toEqual([]);
});

async function freePortsInAnotherProcess(count: number): Promise<number[]> {
  const script = `require('./src/net/free-port').freePorts(${count}).then((ports) => console.log(JSON.stringify(ports)))`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script]);
  return z.array(z.number().int()).parse(JSON.parse(stdout));
}
