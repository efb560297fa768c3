/**
 * GET /docs, the API reference page built from the engine's document (npm run build:docs; the tests' global setup
 * builds it as npm start does), opened in Chromium (playwright-core, as the checkout's browser tests): it loads,
 * its menu lists every tag of the document, nothing is fetched from another host (no CDN, no web font), and the
 * console shows no error.
 */
import { readFileSync } from 'node:fs';
import { engineOpenApi } from '../../src/api/openapi-document';
import { REFERENCE_PAGE } from '../../src/api/reference-page';
import { launchBrowser, type Browser } from '../card-payments/card-checkout';
import { startEngineApi, type EngineApi } from '../helpers/engine-api';

let api: EngineApi;
let browser: Browser;
beforeAll(async () => {
  api = await startEngineApi();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

test('the built page loads no script, style or font from elsewhere', () => {
  const html = readFileSync(REFERENCE_PAGE, 'utf8');
  const external = [...html.matchAll(/<(script|link|img|iframe)\b[^>]*\b(src|href)=["']?(https?:)?\/\//gi)].map(
    (match) => match[0],
  );
  expect(external).toEqual([]);
});

test('/docs loads in Chromium, lists every tag, fetches nothing from another host and logs no console error', async () => {
  const page = await browser.context.newPage();
  const consoleErrors: string[] = [];
  const elsewhere: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!['data:', 'blob:', 'about:'].includes(url.protocol) && url.origin !== api.url) elsewhere.push(request.url());
  });
  const answer = await page.goto(`${api.url}/docs`, { waitUntil: 'load' });
  expect(answer?.status()).toBe(200);
  const tags = (engineOpenApi().tags ?? []).map((tag) => tag.name);
  for (const tag of tags)
    await page
      .locator('[role="menuitem"], li', { hasText: tag })
      .first()
      .waitFor({ state: 'attached', timeout: 20_000 });
  const menu = await page.locator('body').innerText();
  expect(tags.filter((tag) => !menu.includes(tag))).toEqual([]);
  expect(await page.title()).toBe('Payout engine API');
  expect({ consoleErrors, elsewhere }).toEqual({ consoleErrors: [], elsewhere: [] });
  await page.close();
}, 60_000);
