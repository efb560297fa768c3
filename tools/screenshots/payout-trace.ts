/**
 * `npm run screenshots:trace`: docs/observability.md's pictures of one payout's traces in Jaeger, the trace
 * backend of docker-compose.yml. Starts Jaeger (./jaeger.ts: the native build, or JAEGER_URL's), then its
 * own stack with OTEL_EXPORTER_OTLP_ENDPOINT at Jaeger's OTLP receiver, makes one payout complete, waits
 * through Jaeger's API until both traces are whole (the payout's, from the API's request to the settlement,
 * and the provider callback's, which signals the workflow and links back), and photographs each trace's page
 * with headless Chromium (CHROMIUM_PATH) into docs/screenshots/ (SCREENSHOT_DIR).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import { pollUntil } from '../../src/util/poll';
import { startJaeger } from './jaeger';
import { SCREENSHOT_DIR, screenshotBrowser, startScreenshotStack } from './screenshot-stack';

/** What Jaeger's query API (`/api/traces`) answers, as far as this script reads it. */
const jaegerTracesSchema = z.object({
  data: z.array(
    z.object({
      traceID: z.string(),
      spans: z.array(
        z.object({
          spanID: z.string(),
          operationName: z.string(),
          references: z.array(z.object({ refType: z.string(), traceID: z.string(), spanID: z.string() })),
        }),
      ),
    }),
  ),
});
type JaegerTrace = z.infer<typeof jaegerTracesSchema>['data'][number];

/** The spans each picture must show; a trace is photographed once all of them have reached Jaeger. */
const PAYOUT_SPANS = [
  'POST /v1/payouts',
  'StartWorkflow:payoutWorkflow',
  'RunWorkflow:payoutWorkflow',
  'RunActivity:submitWithdrawal',
  'POST withdraw',
  'RunActivity:checkWithdrawal',
  'RunActivity:settlePayout',
];
const CALLBACK_SPANS = [
  'POST /callbacks/withdrawals',
  'SignalWorkflow:withdrawalCallback',
  'HandleSignal:withdrawalCallback',
];

const EXTERNAL_ID = 'order-1001';

/** The traces of `service`'s `operation` that started after `sinceMs` (a Jaeger of JAEGER_URL may hold earlier runs' too). */
async function tracesOf(
  jaegerUrl: string,
  service: string,
  operation: string,
  sinceMs: number,
): Promise<JaegerTrace[]> {
  // Jaeger's query API takes its bounds in microseconds.
  const query = new URLSearchParams({
    service,
    operation,
    limit: '20',
    start: String(sinceMs * 1000),
    end: String(Date.now() * 1000),
  });
  const response = await fetch(`${jaegerUrl}/api/traces?${query.toString()}`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`Jaeger answered ${response.status} to /api/traces`);
  return jaegerTracesSchema.parse(await response.json()).data;
}

const hasAll = (trace: JaegerTrace, names: readonly string[]): boolean =>
  names.every((name) => trace.spans.some((span) => span.operationName === name));

/** Polls Jaeger until the payout's trace and its callback's (the one linking to it) hold every expected span. */
async function wholeTraces(
  jaegerUrl: string,
  sinceMs: number,
): Promise<{ payout: JaegerTrace; callback: JaegerTrace }> {
  return pollUntil(
    async () => {
      const payout = (await tracesOf(jaegerUrl, 'payout-api', 'POST /v1/payouts', sinceMs)).find((trace) =>
        hasAll(trace, PAYOUT_SPANS),
      );
      if (!payout) return undefined;
      const callback = (await tracesOf(jaegerUrl, 'payout-api', 'POST /callbacks/withdrawals', sinceMs)).find(
        (trace) =>
          hasAll(trace, CALLBACK_SPANS) &&
          trace.spans.some((span) => span.references.some((reference) => reference.traceID === payout.traceID)),
      );
      return callback ? { payout, callback } : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500, description: "the payout's and its callback's traces in Jaeger" },
  );
}

/** Jaeger UI's share of the width for span names (its own setting, kept in localStorage): wide enough for `RunActivity:submitWithdrawal`. */
const NAME_COLUMN_WIDTH = '0.36';

/**
 * The trace's page once every expected span's row is drawn, cut below its last row; `before` opens what the
 * picture shows (a span's details). Written as `file`, whose size in bytes is returned.
 */
async function photograph(
  page: Page,
  url: string,
  names: readonly string[],
  file: string,
  before?: (page: Page) => Promise<void>,
): Promise<number> {
  await page.goto(url, { waitUntil: 'networkidle' });
  for (const name of names) await page.getByText(name, { exact: true }).first().waitFor({ timeout: 60_000 });
  await before?.(page);
  const last = await page.locator('.VirtualizedTraceView--row').last().boundingBox();
  if (!last) throw new Error(`no span row drawn on ${url}`);
  const { width } = page.viewportSize() ?? { width: 1440 };
  await page.screenshot({ path: file, clip: { x: 0, y: 0, width, height: Math.ceil(last.y + last.height) + 8 } });
  return statSync(file).size;
}

/** The callback's request span opened at its References: the link to the span that started the payout's workflow, in the other trace. */
async function openCallbackReferences(page: Page): Promise<void> {
  await page.locator('.span-name').filter({ hasText: 'POST /callbacks/withdrawals' }).first().click();
  await page.locator('.AccordianReferences--header').first().click();
  await page.locator('.ReferencesList--Item').first().waitFor({ timeout: 30_000 });
}

async function main(): Promise<void> {
  const jaeger = await startJaeger();
  try {
    // Batches of spans leave every 100 ms, so the traces are whole in Jaeger soon after the payout.
    const startedAt = Date.now();
    const stack = await startScreenshotStack({
      temporalUi: false,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint, OTEL_BSP_SCHEDULE_DELAY: '100' },
    });
    try {
      const created = await stack.engine('POST', '/v1/payouts', {
        externalId: EXTERNAL_ID,
        amount: 25,
        pixKey: '52998224725',
        keyType: 'CPF',
      });
      if (created.status !== 202)
        throw new Error(`POST /v1/payouts answered ${created.status}: ${JSON.stringify(created.body)}`);
      const ended = await stack.payoutEnded(EXTERNAL_ID);
      if (ended.body.status !== 'COMPLETED')
        throw new Error(`payout ${EXTERNAL_ID} ended ${String(ended.body.status)}`);
    } finally {
      await stack.stop();
    }
    const { payout, callback } = await wholeTraces(jaeger.url, startedAt);

    const browser = await screenshotBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.addInitScript(`localStorage.setItem('spanNameColumnWidth', '${NAME_COLUMN_WIDTH}')`);
      const sizes = {
        'jaeger-payout-trace.png': await photograph(
          page,
          `${jaeger.url}/trace/${payout.traceID}`,
          PAYOUT_SPANS,
          path.join(SCREENSHOT_DIR, 'jaeger-payout-trace.png'),
        ),
        'jaeger-callback-trace.png': await photograph(
          page,
          `${jaeger.url}/trace/${callback.traceID}`,
          CALLBACK_SPANS,
          path.join(SCREENSHOT_DIR, 'jaeger-callback-trace.png'),
          openCallbackReferences,
        ),
      };
      process.stdout.write(
        `${JSON.stringify({ written: SCREENSHOT_DIR, payoutTrace: payout.traceID, payoutSpans: payout.spans.length, callbackTrace: callback.traceID, callbackSpans: callback.spans.length, bytes: sizes })}\n`,
      );
    } finally {
      await browser.close();
    }
  } finally {
    await jaeger.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
