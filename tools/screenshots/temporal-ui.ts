/**
 * `npm run screenshots`: the documentation's pictures of the Temporal UI, taken from a real stack. Starts its
 * own stack (dev server with its Web UI decoding through the engine's codec, sandbox, worker, API) in a
 * throwaway folder, makes a few payouts and a charge, and photographs with headless Chromium
 * (CHROMIUM_PATH, default /usr/bin/chromium) the workflow list filtered by state, one payout's page and
 * its user metadata (summary and details, masked) into docs/screenshots/ (SCREENSHOT_DIR to write elsewhere).
 */
import path from 'node:path';
import { SCREENSHOT_DIR, screenshotBrowser, startScreenshotStack } from './screenshot-stack';

async function main(): Promise<void> {
  const stack = await startScreenshotStack({ temporalUi: true });
  try {
    const { config } = stack;
    const engine = (method: string, route: string, body?: unknown) => stack.engine(method, route, body);
    const payouts = [
      { externalId: 'order-1001', amount: 25, pixKey: '52998224725', keyType: 'CPF' },
      { externalId: 'order-1002', amount: 80.1, pixKey: 'ana@example.com', keyType: 'EMAIL', description: 'March' },
      { externalId: 'order-1003', amount: 12.5, method: 'internal', email: 'recipient@sandbox.test' },
      { externalId: 'order-1004', amount: 10.13, pixKey: '+5511987654321', keyType: 'PHONE' },
    ];
    for (const payout of payouts) await engine('POST', '/v1/payouts', payout);
    await engine('POST', '/v1/charges', {
      externalId: 'invoice-2001',
      amount: 150,
      payer: { name: 'Ana Souza', document: '52998224725' },
    });
    await fetch(`http://127.0.0.1:${stack.ports.sandbox}/sandbox/cash-ins/invoice-2001/pay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.SANDBOX_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    for (const { externalId } of payouts) await stack.payoutEnded(externalId);

    const browser = await screenshotBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const ui = `${stack.temporalUiUrl ?? ''}/namespaces/${config.TEMPORAL_NAMESPACE}`;
      await page.goto(`${ui}/workflows?query=${encodeURIComponent("PayoutStatus = 'COMPLETED'")}`, {
        waitUntil: 'networkidle',
      });
      await page.getByText('payout:order-1001').first().waitFor({ timeout: 60_000 });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'temporal-ui-payouts-completed.png') });
      await page.goto(`${ui}/workflows/${encodeURIComponent('payout:order-1002')}`, { waitUntil: 'networkidle' });
      await page.getByText('COMPLETED').first().waitFor({ timeout: 60_000 });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'temporal-ui-payout-page.png') });
      await page.getByText('User Metadata').first().click();
      await page.getByText('Current Details').first().waitFor({ timeout: 60_000 });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'temporal-ui-payout-metadata.png') });
    } finally {
      await browser.close();
    }
    process.stdout.write(`screenshots written to ${SCREENSHOT_DIR}\n`);
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
