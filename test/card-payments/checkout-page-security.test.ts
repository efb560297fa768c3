/**
 * The checkout page as a browser enforces it: its styles are allowed by their hash (no 'unsafe-inline'),
 * the provider's shield.js carries the Subresource Integrity hash of PAYMENT_SHIELD_SCRIPT_INTEGRITY, so a
 * tampered script is refused (and the page then cannot take a card at all), and the issuer's challenge is
 * framed by this checkout's origin only. Real Chromium, real sandbox, real engine.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConsoleMessage } from 'playwright-core';
import { TEST_CARDS } from '../../sandbox/products/card-payments/test-cards';
import { startEngineHarness } from '../helpers/engine-harness';
import { forThisFile } from '../helpers/for-this-file';
import {
  challengeFrame,
  createCardPayment,
  launchBrowser,
  openCheckout,
  pageOutcome,
  pay,
  typeCard,
  waitForCardPayment,
} from './card-checkout';

const SHIELD_SCRIPT = readFileSync(path.join(__dirname, '../../sandbox/products/card-payments/shield/shield.js'));
const INTEGRITY = `sha384-${createHash('sha384').update(SHIELD_SCRIPT).digest('base64')}`;

const stack = forThisFile(() => startEngineHarness({ PAYMENT_SHIELD_SCRIPT_INTEGRITY: INTEGRITY }));
const browser = forThisFile(launchBrowser);

const cspComplaints = (messages: ConsoleMessage[]): string[] =>
  messages.map((message) => message.text()).filter((text) => /Content Security Policy|integrity/i.test(text));

test("styles by their hash, no 'unsafe-inline'; the provider's script by its integrity hash; a challenge in a frame this origin may hold: PAID", async () => {
  const created = await createCardPayment(stack, 'csp-challenge');
  const answer = await fetch(created.checkoutUrl);
  const policy = answer.headers.get('content-security-policy') ?? '';
  expect(policy).not.toContain('unsafe-inline');
  expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/]{43}='/);
  expect(await answer.text()).toContain(
    `/shield/shield.js" integrity="${INTEGRITY}" crossorigin="anonymous"></script>`,
  );

  const page = await openCheckout(browser, created.checkoutUrl);
  const messages: ConsoleMessage[] = [];
  page.on('console', (message) => messages.push(message));
  // The page's own <style> applies: its hash is the one the policy names.
  expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe('rgb(244, 245, 247)');
  await typeCard(page, TEST_CARDS.challenge);
  await pay(page);
  await challengeFrame(page).getByRole('button', { name: 'Approve' }).click();
  expect((await pageOutcome(page)).status).toBe('PAID');
  expect(await waitForCardPayment(stack, created.externalId, ['PAID'])).toMatchObject({ last4: '3220' });
  expect(cspComplaints(messages)).toEqual([]);
  expect(browser.pageErrors).toEqual([]);
  await page.close();
});

test('a tampered shield.js is refused by the browser: the page cannot take a card, nothing reaches the provider', async () => {
  const created = await createCardPayment(stack, 'sri-tampered');
  const page = await browser.context.newPage();
  const messages: ConsoleMessage[] = [];
  page.on('console', (message) => messages.push(message));
  // What a compromised host or network would serve in its place: the script with a line of its own.
  await page.route('**/shield/shield.js', (route) =>
    route.fulfill({
      status: 200,
      headers: { 'content-type': 'application/javascript', 'access-control-allow-origin': '*' },
      body: `${SHIELD_SCRIPT.toString()}\nwindow.skimmed = true;`,
    }),
  );
  await page.goto(created.checkoutUrl);
  await typeCard(page, TEST_CARDS.frictionless);
  expect(
    await page.evaluate<{ helper: string; skimmed: boolean }>(
      '({ helper: typeof window.ShieldHelper, skimmed: window.skimmed === true })',
    ),
  ).toEqual({ helper: 'undefined', skimmed: false });
  await expect(page.getByRole('button', { name: /^Pay/ }).isDisabled()).resolves.toBe(true);
  await page.getByLabel('Security code').press('Enter');
  expect(page.url()).toBe(created.checkoutUrl);
  expect(cspComplaints(messages).some((text) => /integrity/i.test(text))).toBe(true);
  expect((await stack.api<{ status: string }>('GET', `/v1/card-payments/${created.externalId}`)).body.status).toBe(
    'AWAITING_CARD',
  );
  await page.close();
});
