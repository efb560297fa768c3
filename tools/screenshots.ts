/**
 * `npm run screenshots`: the README's pictures of the Temporal UI, taken from a real stack. Starts its
 * own stack (dev server with its Web UI decoding through the engine's codec, sandbox, worker, API) in a
 * throwaway folder, makes a few payouts and a charge, and photographs with headless Chromium
 * (CHROMIUM_PATH, default /usr/bin/chromium) the workflow list filtered by state, one payout's page and
 * its user metadata (summary and details, masked) into docs/screenshots/ (SCREENSHOT_DIR to write elsewhere).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/config/env';
import { freePort } from '../src/net/free-port';
import { freeStackPorts, localStackEnv } from './stack/local-stack-env';
import { spawnKeepingTail, spawnWaitingForLog, stopChild, waitHealthy } from './stack/child-services';
import { temporalCliPath } from './temporal/binaries';
import { startDevServer } from './temporal/dev-server';
import { pollUntil } from '../src/util/poll';
import { devServerOptionsFor } from './stack/stack-options';

const OUT_DIR = path.resolve(process.env.SCREENSHOT_DIR ?? path.join(__dirname, '..', 'docs', 'screenshots'));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-screenshots-'));
  const ports = { temporal: await freePort(), ui: await freePort(), ...(await freeStackPorts()) };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...localStackEnv({ dataDir, temporalAddress: `127.0.0.1:${ports.temporal}`, ports }),
    TEMPORAL_UI_PORT: String(ports.ui),
    SANDBOX_SETTLE_MS: '300',
    LOG_LEVEL: 'warn',
  };
  const config = loadConfig(env);
  const temporal = await startDevServer({ ...devServerOptionsFor(config, temporalCliPath()), stdio: 'ignore' });
  const children: ChildProcess[] = [];
  try {
    const sandbox = spawnKeepingTail('sandbox', env);
    children.push(sandbox.child);
    await waitHealthy(`http://127.0.0.1:${ports.sandbox}/healthz`, sandbox.child, 'sandbox', { tail: sandbox.tail });
    children.push(await spawnWaitingForLog('worker', { ...env, LOG_LEVEL: 'info' }, '"worker.started"'));
    const api = spawnKeepingTail('api', env);
    children.push(api.child);
    await waitHealthy(`http://127.0.0.1:${ports.engine}/healthz`, api.child, 'engine API', { tail: api.tail });

    const engine = async (method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
      const response = await fetch(`http://127.0.0.1:${ports.engine}${route}`, {
        method,
        headers: { authorization: `Bearer ${config.ENGINE_API_KEYS[0] ?? ''}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const payouts = [
      { externalId: 'order-1001', amount: 25, pixKey: '52998224725', keyType: 'CPF' },
      { externalId: 'order-1002', amount: 80.1, pixKey: 'ana@example.com', keyType: 'EMAIL', description: 'March' },
      { externalId: 'order-1003', amount: 12.5, method: 'internal', email: 'recipient@sandbox.test' },
      { externalId: 'order-1004', amount: 10.13, pixKey: '+5511987654321', keyType: 'PHONE' },
    ];
    for (const payout of payouts) await engine('POST', '/v1/payouts', payout);
    await engine('POST', '/v1/charges', { externalId: 'invoice-2001', amount: 150, payer: { name: 'Ana Souza', document: '52998224725' } });
    await fetch(`http://127.0.0.1:${ports.sandbox}/sandbox/cash-ins/invoice-2001/pay`, { method: 'POST', headers: { authorization: `Bearer ${config.SANDBOX_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: '{}' });
    for (const { externalId } of payouts) {
      await pollUntil(async () => (['COMPLETED', 'FAILED'].includes(String((await engine('GET', `/v1/payouts/${externalId}`)).body.status)) ? true : undefined), {
        timeoutMs: 120_000,
        intervalMs: 250,
        description: `payout ${externalId} to end`,
      });
    }

    mkdirSync(OUT_DIR, { recursive: true });
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const ui = `http://127.0.0.1:${ports.ui}/namespaces/${config.TEMPORAL_NAMESPACE}`;
      await page.goto(`${ui}/workflows?query=${encodeURIComponent("PayoutStatus = 'COMPLETED'")}`, { waitUntil: 'networkidle' });
      await page.getByText('payout:order-1001').first().waitFor({ timeout: 60_000 });
      await page.screenshot({ path: path.join(OUT_DIR, 'temporal-ui-payouts-completed.png') });
      await page.goto(`${ui}/workflows/${encodeURIComponent('payout:order-1002')}`, { waitUntil: 'networkidle' });
      await page.getByText('COMPLETED').first().waitFor({ timeout: 60_000 });
      await page.screenshot({ path: path.join(OUT_DIR, 'temporal-ui-payout-page.png') });
      await page.getByText('User Metadata').first().click();
      await page.getByText('Current Details').first().waitFor({ timeout: 60_000 });
      await page.screenshot({ path: path.join(OUT_DIR, 'temporal-ui-payout-metadata.png') });
    } finally {
      await browser.close();
    }
    process.stdout.write(`screenshots written to ${OUT_DIR}\n`);
  } finally {
    for (const child of children.reverse()) await stopChild(child, 30_000);
    await temporal.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
