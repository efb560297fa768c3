/**
 * One real Temporal dev server for the whole jest run, started from the binary the project installs
 * (tools/temporal/binaries.ts). Test files reach it through TEMPORAL_TEST_ADDRESS. The engine's workflow bundle
 * (and its traced twin) is built once for the run, meanwhile, (run-bundle.ts): webpack costs seconds of
 * CPU, paid otherwise by every test file and every worker process a test spawns.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { binaryVersion, temporalCliPath } from '../../tools/temporal/binaries';
import { startDevServer, type DevServerHandle } from '../../tools/temporal/dev-server';
import { freePort } from '../../src/net/free-port';
import { ensureReferencePage } from '../../tools/docs/reference-page';
import { writeWorkflowBundle } from '../../src/worker/workflow-source';
import { setRunBundlePath } from './run-bundle';

declare global {
  var __TEMPORAL_DEV_SERVER__: DevServerHandle | undefined;
}

export default async function globalSetup(): Promise<void> {
  // The engine's GET /docs, as npm start builds it: before any test file serves it.
  ensureReferencePage();
  const binary = temporalCliPath();
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payout-engine-test-'));
  const started = Date.now();
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  const [server] = await Promise.all([
    startDevServer({
      binary,
      port,
      dbFile: path.join(dir, 'temporal.sqlite'),
      stdio: 'ignore',
      startupTimeoutMs: 120_000,
    }),
    writeWorkflowBundle(bundlePath),
  ]);
  setRunBundlePath(bundlePath);
  globalThis.__TEMPORAL_DEV_SERVER__ = server;
  process.env.TEMPORAL_TEST_ADDRESS = server.address;
  process.env.TEMPORAL_TEST_DATA_DIR = dir;
  process.stdout.write(
    `\n[global-setup] Temporal dev server ${binaryVersion(binary).split('\n')[0]} from ${binary}\n` +
      `[global-setup] listening on ${server.address} (pid ${server.pid}), ready with the workflow bundle in ${Date.now() - started} ms\n` +
      // The one switch of `npm run test:seed`: the engine harness starts its sandbox in this profile.
      `[global-setup] sandbox profile: ${process.env.SANDBOX_PROFILE ?? 'default'}\n`,
  );
}
