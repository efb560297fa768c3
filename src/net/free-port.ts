import net from 'node:net';

/** Asks the OS for a free TCP port on loopback. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not read the allocated port'));
      });
    });
  });
}

/**
 * A free TCP port on loopback within [min, max]: for servers that cannot take any port the OS hands out
 * (the Temporal server keeps its membership ports in a PostgreSQL smallint, so below 32768, where Linux's
 * ephemeral range begins).
 */
export async function freePortBetween(min: number, max: number, host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const candidate = min + Math.floor(Math.random() * (max - min + 1));
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.unref();
      server.once('error', () => resolve(false));
      server.listen(candidate, host, () => server.close(() => resolve(true)));
    });
    if (free) return candidate;
  }
  throw new Error(`no free port between ${min} and ${max} on ${host}`);
}

/** `count` distinct free ports: each is held until all are found, so no two calls can return the same one. */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer();
      server.unref();
      server.once('error', reject);
      server.listen(0, host, () => resolve(server));
    })),
  );
  const ports = servers.map((server) => {
    const address = server.address();
    if (!address || typeof address !== 'object') throw new Error('could not read the allocated port');
    return address.port;
  });
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}
