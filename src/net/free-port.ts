import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * Where a port is chosen for a server started a moment later: below Linux's ephemeral range (32768-60999),
 * which the OS also hands to every outgoing connection's local end. A port taken from that range is free when
 * chosen, but any connection opened before the server binds it (a test's HTTP client, a gRPC channel) may take
 * it meanwhile, and the server's start then fails with EADDRINUSE. Below 32768 also suits the Temporal server,
 * which keeps its membership ports in a PostgreSQL smallint.
 */
export const PORTS_FOR_SERVERS = { min: 20_000, max: 32_767 } as const;

/**
 * A port is free when chosen but bound only later, after a child process starts (seconds under load). Another
 * process choosing in that window (a parallel jest worker, a second stack) would see it free too, and one of the
 * two servers would fail with EADDRINUSE. So each chosen port is also claimed by a file created exclusively; a
 * claim older than this is taken to be abandoned (its server bound long ago, or never started).
 */
const CLAIM_LIFETIME_MS = 10 * 60_000;
const claimsDir = path.join(os.tmpdir(), 'engine-port-claims');

function claim(port: number): boolean {
  const file = path.join(claimsDir, String(port));
  try {
    fs.mkdirSync(claimsDir, { recursive: true });
    fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    // A machine whose temp folder cannot be written still gets ports, only without the cross-process claim.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return true;
    const claimedAt = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (Date.now() - claimedAt < CLAIM_LIFETIME_MS) return false;
    fs.utimesSync(file, new Date(), new Date());
    return true;
  }
}

/** A free TCP port on loopback, for a server to listen on. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [port] = await freePorts(1, host);
  if (port === undefined) throw new Error('could not find a free port');
  return port;
}

function listenOn(port: number, host: string): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * `count` distinct free ports among PORTS_FOR_SERVERS, none handed out by another call (in this process or
 * another) in the last CLAIM_LIFETIME_MS: each is held until all are found, then claimed.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const { min, max } = PORTS_FOR_SERVERS;
  const held = new Map<number, net.Server>();
  try {
    for (let attempt = 0; held.size < count; attempt += 1) {
      if (attempt >= 100 + count * 10) throw new Error(`no ${count} free ports between ${min} and ${max} on ${host}`);
      const candidate = min + Math.floor(Math.random() * (max - min + 1));
      if (held.has(candidate)) continue;
      const server = await listenOn(candidate, host);
      if (!server) continue;
      if (claim(candidate)) held.set(candidate, server);
      else await new Promise((resolve) => server.close(resolve));
    }
    return [...held.keys()];
  } finally {
    await Promise.all([...held.values()].map((server) => new Promise((resolve) => server.close(resolve))));
  }
}
