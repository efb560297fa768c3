/**
 * What the card payment tests share: a real Chromium, a payment created through the API, a card typed into its
 * checkout page (or its pay call made as the page makes it), and the security module served as another provider would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import type { CardPaymentCreated, CardPaymentResponse, CheckoutResult } from '../../src/api/card-payments/schemas';
import { cardPaymentWorkflowId, startAuthorizationUpdate } from '../../src/contracts/card-payment';
import { paymentApiClient } from '../../src/engine/payment-api-client';
import { encryptCardToken } from '../../src/payment-api/shield-card-token';
import type { EngineHarness } from '../helpers/engine-harness';
import { httpCall, type HttpAnswer } from '../helpers/http';
import { newExternalId } from '../helpers/payouts';
import { launchChromium } from '../helpers/chromium';
import { forThisFile } from '../helpers/for-this-file';
import { waitForStatus } from '../helpers/wait-for-status';

/**
 * One security code for every test card: the secrets tests look for it. A leading zero and a trailing zero, so no
 * number a log line prints (a port, a duration, a fraction) can be it; the searches also skip hex runs (uuids).
 */
export const TEST_CVV = '0370';

/** A secret made of digits, standing on its own in the text: not inside a longer number, a uuid or a hex id. */
export const digitsAlone = (secret: string, text: string): boolean =>
  new RegExp(`(?<![\\w.-])${secret}(?![\\w-])`).test(text);
export const EXPIRY_YEAR = String(new Date().getUTCFullYear() + 2);
export const PAYER = {
  name: 'Ana Souza',
  email: 'ana@example.com',
  document: '529.982.247-25',
  phone: '(11) 98765-4321',
};

export interface Browser {
  context: BrowserContext;
  pageErrors: string[];
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  return { ...(await launchChromium('checkout-chromium-')), pageErrors: [] };
}

/** A browser for the whole test file; each test ends with no uncaught error on the pages it opened. */
export function browserForThisFile(): Browser {
  const browser = forThisFile(launchBrowser);
  afterEach(() => {
    expect(browser.pageErrors).toEqual([]);
  });
  return browser;
}

export async function createCardPayment(
  stack: EngineHarness,
  label: string,
  fields: Record<string, unknown> = {},
): Promise<CardPaymentCreated> {
  const answer = await stack.api<CardPaymentCreated>('POST', '/v1/card-payments', {
    externalId: newExternalId(label),
    amount: 100.1,
    installmentCount: 1,
    payer: PAYER,
    description: 'Order 1001',
    items: [{ title: 'Blue mug', quantity: 2, amount: 50.05 }],
    ...fields,
  });
  if (answer.status !== 201)
    throw new Error(`card payment not created: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The token of a payment's checkout link, which the checkout's own calls carry. */
export const checkoutToken = ({ checkoutUrl }: Pick<CardPaymentCreated, 'checkoutUrl'>): string =>
  new URL(checkoutUrl).searchParams.get('token') ?? '';

export async function openCheckout(browser: Browser, checkoutUrl: string): Promise<Page> {
  const page = await browser.context.newPage();
  page.on('pageerror', (error) => browser.pageErrors.push(error.message));
  await page.goto(checkoutUrl);
  return page;
}

export async function typeCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Name on card').fill('ANA SOUZA');
  await page.getByLabel('Card number').fill(number.replace(/(\d{4})(?=\d)/g, '$1 '));
  await page.getByLabel('Expiry month (MM)').fill('12');
  await page.getByLabel('Expiry year (YYYY)').fill(EXPIRY_YEAR);
  await page.getByLabel('Security code').fill(TEST_CVV);
}

export const pay = (page: Page) => page.getByRole('button', { name: /^Pay/ }).click();
export const challengeFrame = (page: Page) => page.frameLocator('iframe[title="3-D Secure challenge"]');

/** The page's last word: the payment's outcome (PAID, FAILED, ...) and what the buyer reads. */
export async function pageOutcome(page: Page): Promise<{ status: string; text: string }> {
  const status = page.locator('#checkout-status[data-final]');
  await status.waitFor({ timeout: 30_000 });
  return { status: (await status.getAttribute('data-status')) ?? '', text: (await status.textContent()) ?? '' };
}

export function waitForCardPayment(
  stack: EngineHarness,
  externalId: string,
  statuses: string[],
  timeoutMs = 30_000,
): Promise<CardPaymentResponse> {
  return waitForStatus(stack, `card payment ${externalId}`, `/v1/card-payments/${externalId}`, statuses, timeoutMs);
}

/** The environment's shield key as the engine hands it to the page: configured, or the default sandbox's GET /shield/public-key. */
async function shieldPublicKey(stack: EngineHarness): Promise<string> {
  const configured = stack.config.PAYMENT_SHIELD_PUBLIC_KEY;
  if (configured !== undefined) return configured;
  return ((await (await fetch(`${stack.sandboxUrl}/shield/public-key`)).json()) as { publicKey: string }).publicKey;
}

/**
 * The 3DS session the security module opens for a card its issuer does not challenge, over HTTP as the module does
 * (the sandbox's POST /shield/sessions, with the card's token): AUTHENTICATED at once, with its result.
 */
async function frictionlessThreeDS(
  stack: EngineHarness,
  externalId: string,
  publicKey: string,
  cardToken: string,
): Promise<{ sessionId: string; threeDS: Record<string, string> }> {
  const order = (await stack.api<CardPaymentResponse>('GET', `/v1/card-payments/${encodeURIComponent(externalId)}`))
    .body;
  const session = await httpCall<{ sessionId: string; status: string; threeDS?: Record<string, string> }>(
    `${stack.sandboxUrl}/shield/sessions`,
    {
      body: {
        publicKey,
        amount: Math.round(order.amount * 100),
        installments: order.installmentCount,
        currency: 'BRL',
        cardToken,
      },
    },
  );
  if (session.body.status !== 'AUTHENTICATED' || !session.body.threeDS)
    throw new Error(`3DS session not authenticated: ${session.status} ${JSON.stringify(session.body)}`);
  return { sessionId: session.body.sessionId, threeDS: session.body.threeDS };
}

/**
 * The checkout page's pay call as the page makes it for a card its issuer does not challenge: the card, its token from
 * the security module's key, and the frictionless 3DS result (`threeDS: false`: none, as a caller skipping the page's
 * step 5 would send). For the tests of what happens after the provider took the card.
 */
export async function payAtCheckout(
  stack: EngineHarness,
  created: CardPaymentCreated,
  number: string,
  options: { threeDS?: boolean } = {},
): Promise<HttpAnswer<CheckoutResult>> {
  const card = { number, holderName: 'ANA SOUZA', expMonth: 12, expYear: Number(EXPIRY_YEAR), cvv: TEST_CVV };
  const token = checkoutToken(created);
  const publicKey = await shieldPublicKey(stack);
  const cardToken = encryptCardToken(publicKey, card);
  return httpCall<CheckoutResult>(`${stack.apiUrl}/checkout/${encodeURIComponent(created.externalId)}/pay`, {
    body: {
      token,
      card: { holderName: card.holderName, number, expiryMonth: '12', expiryYear: EXPIRY_YEAR, cvv: TEST_CVV },
      cardToken,
      ...(options.threeDS === false ? {} : await frictionlessThreeDS(stack, created.externalId, publicKey, cardToken)),
    },
  });
}

/**
 * The sandbox's security module served from another origin, with its JSON answers rewritten by `rewrite` (path
 * without query, body) and `scriptTail` run after its script: a provider whose settings, 3DS answers and module
 * differ from the sandbox's where the spec leaves room. `target` is set once the sandbox listens.
 */
export async function startShieldVariant(
  rewrite: (path: string, body: Record<string, unknown>) => Record<string, unknown>,
  scriptTail = '',
): Promise<{ url: string; target: { url: string }; close(): Promise<void> }> {
  const target = { url: '' };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(
            (entry): entry is [string, string] =>
              typeof entry[1] === 'string' && entry[0] !== 'host' && entry[0] !== 'content-length',
          ),
        );
        const answer = await fetch(target.url + (req.url ?? '/'), {
          method: req.method ?? 'GET',
          headers,
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        const text = await answer.text();
        const json = (answer.headers.get('content-type') ?? '').includes('json')
          ? (JSON.parse(text) as Record<string, unknown>)
          : undefined;
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        const body =
          json === undefined
            ? path.endsWith('.js')
              ? `${text}\n${scriptTail}`
              : text
            : JSON.stringify(rewrite(path, json));
        const kept = Object.fromEntries(
          [...answer.headers].filter(
            ([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name),
          ),
        );
        res.writeHead(answer.status, kept).end(body);
      })().catch(() => res.socket?.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The checkout's first step made straight on the workflow: the card (VISA ending in 1111) submitted, so the payment
 * is AUTHORIZING. Tests that then leave out the rest play a checkout that crashed; the answer is the order.
 */
export const startAuthorization = (stack: EngineHarness, externalId: string) =>
  stack.temporal.client.workflow
    .getHandle(cardPaymentWorkflowId(externalId))
    .executeUpdate(startAuthorizationUpdate, { args: [{ brand: 'VISA', last4: '1111' }] });

/** An operator's recheck of a card payment (POST /v1/card-payments/:id/recheck), naming the provider's payment if given. */
export const recheckCardPayment = (stack: EngineHarness, externalId: string, providerPaymentId?: number) =>
  stack.api<CardPaymentResponse>(
    'POST',
    `/v1/card-payments/${externalId}/recheck`,
    providerPaymentId === undefined ? {} : { providerPaymentId },
  );

/** Endpoint 2 called directly, as a checkout whose answer was lost called it: a card payment of `amount` naming `externalId`'s order. */
export function chargeAtProvider(
  stack: EngineHarness,
  externalId: string,
  amount: number,
  options: { callback?: boolean } = {},
) {
  return paymentApiClient(stack.config).createCardPayment({
    amount,
    installmentCount: 1,
    dueDate: new Date().toISOString().slice(0, 10),
    externalReference: externalId,
    ...(options.callback ? { clientCallbackUrl: `${stack.apiUrl}/callbacks/card` } : {}),
    payer: { ...PAYER, document: '52998224725', phone: '+5511987654321' },
    creditCard: {
      holderName: 'ANA SOUZA',
      number: '4111111111111111',
      expiryMonth: '12',
      expiryYear: EXPIRY_YEAR,
      ccv: TEST_CVV,
    },
  });
}
