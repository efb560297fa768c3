/**
 * The bench and the screenshots start the sandbox and the API with their output out of sight; when one of
 * them cannot start, the error says why, from the service's own last log lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawnKeepingTail, stopChild, waitHealthy } from '../../tools/stack/child-services';

/** Another program on the port: it takes connections and drops them. */
function occupyFreePort(): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

test('a sandbox that cannot take its port is reported with the reason it logged, not just as exited', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-start-failure-'));
  const taken = await occupyFreePort();
  const port = (taken.address() as net.AddressInfo).port;
  const sandbox = spawnKeepingTail('sandbox', {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    SANDBOX_PORT: String(port),
    LOG_LEVEL: 'warn',
  });
  try {
    const started = waitHealthy(`http://127.0.0.1:${port}/healthz`, sandbox.child, 'sandbox', {
      tail: sandbox.tail,
      timeoutMs: 30_000,
    });
    await expect(started).rejects.toThrow(
      /sandbox exited during start-up: .*"event":"sandbox\.listen_failed".*EADDRINUSE/,
    );
  } finally {
    await stopChild(sandbox.child, 5_000);
    taken.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
