/**
 * The card flow's browser side in a real browser (Debian's chromium, driven by playwright-core): a
 * checkout page on its own origin loads the sandbox's shield.js and runs the spec's "Browser-side 3DS
 * preparation" steps 1-7, in the spec's order (the module reads the card from the page's card fields) or
 * with encrypt first (the token given to prepareThreeDS); the test then plays the merchant's backend and
 * calls endpoint 2 with what the page produced. Chromium: CHROMIUM_PATH, else /usr/bin/chromium
 * (`apt-get install -y chromium`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import type { CardTokenPayload } from '../../src/payment-api/schemas/security-module';
import { TEST_CARDS } from '../../sandbox/products/card-payments';
import type { Answer } from '../helpers/sandbox';
import { creditCardOf, environmentKey, testCard } from './shield-helpers';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { launchChromium, type ChromiumSession } from '../helpers/chromium';

/** The second sandbox's challenge timeout: short, so that an unanswered challenge is abandoned within the test. */
const SHORT_CHALLENGE_MS = 1_500;

interface Order {
  amount: number | string;
  currency: string;
  installments: number;
  card: CardTokenPayload;
}
interface ThreeDS {
  cavv: string;
  xid: string;
  eci: string;
  version: string;
  referenceId: string;
}
/** What the page hands to the merchant's backend (step 7), or why it could not. */
type Outcome =
  | {
      ok: true;
      cardToken: string;
      sessionId: string;
      threeDS: ThreeDS;
      amount: number;
      settings: Record<string, unknown>;
    }
  | { ok: false; name: string; code?: string; message: string };
interface PaymentBody {
  code: string;
  issues: { path: string; message: string }[];
  data: { id: number; status: string; last4: string };
}

/** The merchant's checkout page: steps 1-7, with encrypt (6) before prepareThreeDS (5), or in the spec's order from its card fields. */
function checkoutPage(sandboxUrl: string, publicKey: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Test shop checkout</title>
<script src="${sandboxUrl}/shield/shield.js"></script>
</head>
<body>
<h1>Test shop</h1>
<form id="card-fields">
<input autocomplete="cc-name"><input autocomplete="cc-number"><input autocomplete="cc-exp-month"><input autocomplete="cc-exp-year"><input autocomplete="cc-csc">
</form>
<script>
  const PUBLIC_KEY = ${JSON.stringify(publicKey)};
  const SETTINGS_URL = ${JSON.stringify(`${sandboxUrl}/shield/settings`)};
  // Step 2: the module named by the helper, with the environment's fixed public key.
  const shieldModule = window[ShieldHelper.getModuleName()];
  shieldModule.setPublicKey(PUBLIC_KEY);

  window.encryptCard = (card) => shieldModule.encrypt(card);

  window.checkout = async (order) => {
    try {
      // Step 3: the 3DS settings, from another origin.
      const settings = await (await fetch(SETTINGS_URL + '?publicKey=' + encodeURIComponent(PUBLIC_KEY))).json();
      // Step 4: the amount in cents.
      const amount = ShieldHelper.convertDecimalToCents(order.amount, order.currency);
      // Step 6: the card token (before step 5: the sandbox picks the 3DS flow by the card).
      const cardToken = await shieldModule.encrypt(order.card);
      // Step 5: 3DS, frictionless or with the issuer's challenge in an iframe.
      const result = await ShieldHelper.prepareThreeDS({ amount, installments: order.installments, currency: order.currency, cardToken });
      // Step 7: what goes to the merchant's backend.
      return { ok: true, cardToken, sessionId: result.sessionId, threeDS: result.threeDS, amount, settings };
    } catch (error) {
      return { ok: false, name: error.name, code: error.code, message: error.message };
    }
  };

  // The spec's order and arguments: the buyer typed the card into the page's fields; 5, then 6.
  window.checkoutInSpecOrder = async (order) => {
    try {
      const form = document.getElementById('card-fields');
      if (form) {
        const typed = { 'cc-name': order.card.holderName, 'cc-number': order.card.number, 'cc-exp-month': String(order.card.expMonth).padStart(2, '0'), 'cc-exp-year': String(order.card.expYear), 'cc-csc': order.card.cvv };
        for (const [name, value] of Object.entries(typed)) form.querySelector('[autocomplete="' + name + '"]').value = value;
      }
      const settings = await (await fetch(SETTINGS_URL + '?publicKey=' + encodeURIComponent(PUBLIC_KEY))).json();
      const amount = ShieldHelper.convertDecimalToCents(order.amount, order.currency);
      const result = await ShieldHelper.prepareThreeDS({ amount, installments: order.installments, currency: order.currency });
      const cardToken = await shieldModule.encrypt(order.card);
      return { ok: true, cardToken, sessionId: result.sessionId, threeDS: result.threeDS, amount, settings };
    } catch (error) {
      return { ok: false, name: error.name, code: error.code, message: error.message };
    }
  };
</script>
</body>
</html>`;
}

let sb: TestSandbox;
let shortSb: TestSandbox;
let pageServer: http.Server;
let shopUrl: string;
let browser: ChromiumSession | undefined;
let context: BrowserContext;
let bearer: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  sb = await startTestSandbox();
  shortSb = await startTestSandbox({ overrides: { SANDBOX_SHIELD_CHALLENGE_TIMEOUT_MS: String(SHORT_CHALLENGE_MS) } });
  bearer = await sb.login();
  const pages = new Map([
    ['/checkout', checkoutPage(sb.url, await environmentKey(sb))],
    ['/checkout-short-challenge', checkoutPage(shortSb.url, await environmentKey(shortSb))],
  ]);
  pageServer = http.createServer((req, res) => {
    const html = pages.get(req.url ?? '');
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  // Another port, so another origin than the sandbox: the browser applies CORS and the iframe's origin check.
  shopUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  browser = await launchChromium('shield-chromium-');
  context = browser.context;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (pageServer ? pageServer.close(resolve) : resolve(undefined)));
  await sb?.stop();
  await shortSb?.stop();
});

afterEach(() => {
  expect(pageErrors).toEqual([]);
});

async function openCheckout(pagePath = '/checkout'): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(shopUrl + pagePath);
  return page;
}

const runCheckout = (page: Page, order: Order): Promise<Outcome> =>
  page.evaluate(
    (value) => (globalThis as unknown as { checkout(order: Order): Promise<Outcome> }).checkout(value),
    order,
  );
const runCheckoutInSpecOrder = (page: Page, order: Order): Promise<Outcome> =>
  page.evaluate(
    (value) =>
      (globalThis as unknown as { checkoutInSpecOrder(order: Order): Promise<Outcome> }).checkoutInSpecOrder(value),
    order,
  );
const challengeFrame = (page: Page) => page.frameLocator('iframe[title="3-D Secure challenge"]');
const challengeOverlays = (page: Page) => page.locator('[data-shield-challenge]').count();

function succeeded(outcome: Outcome): Extract<Outcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`the checkout failed: ${outcome.code ?? outcome.name}: ${outcome.message}`);
  return outcome;
}

/** The merchant's backend: endpoint 2 with the card and what the page produced. */
function pay(
  amount: number,
  card: CardTokenPayload,
  produced?: { cardToken: string; sessionId?: string; threeDS?: ThreeDS },
  installmentCount = 1,
): Promise<Answer<PaymentBody>> {
  return sb.call<PaymentBody>('POST', '/api/v1/card/payments', {
    auth: { bearer },
    body: {
      amount,
      installmentCount,
      dueDate: '2030-01-15',
      payer: { name: 'Ana Souza', email: 'ana@example.com', document: '52998224725', phone: '11987654321' },
      creditCard: {
        ...creditCardOf(card),
        ...(produced?.sessionId ? { sessionId: produced.sessionId } : {}),
        ...(produced?.threeDS ? { threeDS: produced.threeDS } : {}),
      },
      ...(produced ? { creditCardToken: produced.cardToken } : {}),
    },
  });
}
const refusal = (answer: Answer<PaymentBody>) => ({
  status: answer.status,
  code: answer.body.code,
  issues: answer.body.issues,
});

test('a frictionless card: the page runs steps 1-7 without asking the buyer, and endpoint 2 accepts its result', async () => {
  const page = await openCheckout();
  const card = testCard('4111111111111111');
  const outcome = succeeded(await runCheckout(page, { amount: 100.1, currency: 'BRL', installments: 3, card }));
  expect(outcome.amount).toBe(10010);
  expect(outcome.settings).toMatchObject({ moduleName: 'SandboxShield', threeDS: { enabled: true } });
  expect(outcome.sessionId).toMatch(/^3ds_/);
  expect(outcome.threeDS).toEqual({
    cavv: expect.any(String),
    xid: expect.any(String),
    eci: '05',
    version: '2.2.0',
    referenceId: expect.any(String),
  });
  expect(await challengeOverlays(page)).toBe(0);

  const paid = await pay(100.1, card, outcome, 3);
  expect(paid.status).toBe(200);
  expect(paid.body.data).toMatchObject({ status: 'PENDING', last4: '1111' });
  await page.close();
});

test('the challenge card: the buyer approves in the iframe, and endpoint 2 accepts the result', async () => {
  const page = await openCheckout();
  const card = testCard(TEST_CARDS.challenge);
  const pending = runCheckout(page, { amount: '42.00', currency: 'BRL', installments: 1, card });
  const frame = challengeFrame(page);
  await expect(frame.getByText('ending in 3220').textContent()).resolves.toContain('BRL 42.00');
  await frame.getByRole('button', { name: 'Approve' }).click();
  const outcome = succeeded(await pending);
  expect(outcome.threeDS.eci).toBe('05');
  expect(await challengeOverlays(page)).toBe(0);

  const paid = await pay(42, card, outcome);
  expect(paid.status).toBe(200);
  expect(paid.body.data).toMatchObject({ status: 'PENDING', last4: '3220' });
  await page.close();
});

/** The challenge card's checkout of R$ 42 on a fresh page of `path`: the page, and what runCheckout will answer. */
async function challengeCheckout(path?: string) {
  const page = await openCheckout(path);
  const card = testCard(TEST_CARDS.challenge);
  return { page, pending: runCheckout(page, { amount: 42, currency: 'BRL', installments: 1, card }) };
}

test('the challenge card: the buyer denies, and prepareThreeDS rejects with no 3DS result', async () => {
  const { page, pending } = await challengeCheckout();
  await challengeFrame(page).getByRole('button', { name: 'Deny' }).click();
  expect(await pending).toEqual({
    ok: false,
    name: 'ShieldError',
    code: 'THREE_DS_DENIED',
    message: 'The buyer denied the 3DS challenge',
  });
  expect(await challengeOverlays(page)).toBe(0);
  await page.close();
});

test('the challenge card: a buyer who never answers abandons it, and prepareThreeDS rejects when its time is up', async () => {
  const { page, pending } = await challengeCheckout('/checkout-short-challenge');
  await challengeFrame(page).getByRole('button', { name: 'Approve' }).waitFor();
  expect(await pending).toMatchObject({ ok: false, code: 'THREE_DS_ABANDONED' });
  expect(await challengeOverlays(page)).toBe(0);
  await page.close();
});

test("endpoint 2 refuses another card's token, a reused session, another amount, and the challenge card without 3DS", async () => {
  const page = await openCheckout();
  const card = testCard('4111111111111111');
  const outcome = succeeded(await runCheckout(page, { amount: 50, currency: 'BRL', installments: 1, card }));

  const otherCard = testCard('5555555555554444');
  expect(refusal(await pay(50, otherCard, { cardToken: outcome.cardToken }))).toEqual({
    status: 422,
    code: 'INVALID_CARD_TOKEN',
    issues: [{ path: 'creditCardToken', message: 'does not match creditCard.number' }],
  });
  expect(refusal(await pay(49.99, card, outcome))).toEqual({
    status: 422,
    code: 'THREE_DS_INVALID',
    issues: [{ path: 'amount', message: 'differs from the amount authenticated in the 3DS session' }],
  });
  expect((await pay(50, card, outcome)).status).toBe(200);
  expect(refusal(await pay(50, card, outcome))).toEqual({
    status: 422,
    code: 'THREE_DS_INVALID',
    issues: [
      {
        path: 'creditCard.sessionId',
        message: 'the 3DS session cannot be used: it was already used by another payment',
      },
    ],
  });

  const challengeCard = testCard(TEST_CARDS.challenge);
  const challengeToken = await page.evaluate(
    (value) => (globalThis as unknown as { encryptCard(card: CardTokenPayload): Promise<string> }).encryptCard(value),
    challengeCard,
  );
  const withoutThreeDS = refusal(await pay(42, challengeCard, { cardToken: challengeToken }));
  expect(withoutThreeDS).toMatchObject({
    status: 422,
    code: 'THREE_DS_REQUIRED',
    issues: [{ path: 'creditCard.threeDS' }],
  });
  await page.close();
});

describe("the spec's order: prepareThreeDS with the spec's arguments, then module.encrypt", () => {
  test('the module reads the card from the page: a frictionless card goes through at once, the challenge card gets its challenge', async () => {
    const page = await openCheckout();
    const card = testCard('4111111111111111');
    const outcome = succeeded(
      await runCheckoutInSpecOrder(page, { amount: 30, currency: 'BRL', installments: 2, card }),
    );
    expect(await challengeOverlays(page)).toBe(0);
    expect((await pay(30, card, outcome, 2)).body.data).toMatchObject({ status: 'PENDING', last4: '1111' });

    const challengeCard = testCard(TEST_CARDS.challenge);
    const pending = runCheckoutInSpecOrder(page, { amount: 42, currency: 'BRL', installments: 1, card: challengeCard });
    await challengeFrame(page).getByRole('button', { name: 'Approve' }).click();
    const challenged = succeeded(await pending);
    // The session is bound to the card the page held: endpoint 2 takes it with that card only.
    expect(refusal(await pay(42, card, { ...challenged, cardToken: outcome.cardToken }))).toMatchObject({
      status: 422,
      code: 'THREE_DS_INVALID',
      issues: [{ path: 'creditCard.number' }],
    });
    expect((await pay(42, challengeCard, challenged)).body.data).toMatchObject({ status: 'PENDING', last4: '3220' });
    await page.close();
  });

  test('a page without card fields: this environment, which picks the 3DS flow by the card, refuses the session naming what it needs', async () => {
    const page = await openCheckout();
    await page.evaluate("document.getElementById('card-fields').remove()");
    const outcome = await runCheckoutInSpecOrder(page, {
      amount: 30,
      currency: 'BRL',
      installments: 1,
      card: testCard('4111111111111111'),
    });
    expect(outcome).toMatchObject({ ok: false, name: 'ShieldError', code: 'VALIDATION_FAILED' });
    await page.close();
  });
});
