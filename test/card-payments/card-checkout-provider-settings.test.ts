/**
 * The checkout against providers that differ where the spec leaves room, in a real browser:
 * - settings that say 3DS is not required (SANDBOX_SHIELD_THREE_DS=off): paid without prepareThreeDS;
 * - a module that takes the spec's prepareThreeDS arguments only and refuses a card token (SANDBOX_SHIELD_THREE_DS=spec),
 *   in the default order of steps; and the other order (PAYMENT_SHIELD_STEP_ORDER=encrypt-first) for a module that
 *   takes the token;
 * - settings without `currencies` and 3DS answers carrying fields the spec does not list;
 * - the security module's three configured values (PAYMENT_SHIELD_SCRIPT_URL, PAYMENT_SHIELD_SETTINGS_URL,
 *   PAYMENT_SHIELD_PUBLIC_KEY as a file, as PEM text and as an opaque key) against the seed profile, which serves
 *   no /shield/public-key, with the default base address dead; and what a wrong or missing value gives.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_CARDS } from '../../sandbox/products/card-payments/test-cards';
import { freePort } from '../../src/net/free-port';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { forThisFile } from '../helpers/for-this-file';
import {
  browserForThisFile,
  challengeFrame,
  createCardPayment,
  openCheckout,
  pageOutcome,
  pay,
  startShieldVariant,
  typeCard,
  waitForCardPayment,
} from './card-checkout';

const browser = browserForThisFile();
const keyDir = mkdtempSync(path.join(os.tmpdir(), 'shield-key-'));
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

/** What the provider kept of the payment (the sandbox's record of endpoint 2). */
async function providerPayment(stack: EngineHarness, externalId: string): Promise<Record<string, unknown> | undefined> {
  const { operations } = (
    await stack.admin<{ operations: { details: Record<string, unknown> }[] }>(
      'GET',
      '/sandbox/operations?product=card-payment',
    )
  ).body;
  return operations.find((operation) => operation.details.externalReference === externalId)?.details;
}

/** A stack with these settings for the describe block that calls this, and every line it logs. */
function stackAndItsLog(settings: Record<string, string>): { stack: EngineHarness; lines: string[] } {
  const lines: string[] = [];
  const stack = forThisFile(() => startEngineHarness(settings, { logs: (line) => lines.push(line) }));
  return { stack, lines };
}

const events = (lines: string[], event: string) =>
  lines.map((line) => JSON.parse(line) as { event?: string; forCard?: boolean }).filter((line) => line.event === event);

/** A card typed and paid on the checkout page (opened at `origin` when given: another API process); the page's outcome. */
async function payOnPage(
  stack: EngineHarness,
  label: string,
  card: string,
  options: { origin?: string; approveChallenge?: boolean } = {},
) {
  const created = await createCardPayment(stack, label);
  const url = options.origin ? created.checkoutUrl.replace(stack.apiUrl, options.origin) : created.checkoutUrl;
  const page = await openCheckout(browser, url);
  await typeCard(page, card);
  await pay(page);
  if (options.approveChallenge) await challengeFrame(page).getByRole('button', { name: 'Approve' }).click();
  const outcome = await pageOutcome(page);
  await page.close();
  return { externalId: created.externalId, outcome };
}

describe('the provider says 3DS is not required (SANDBOX_SHIELD_THREE_DS=off)', () => {
  const { stack, lines } = stackAndItsLog({ SANDBOX_SHIELD_THREE_DS: 'off' });

  test('the card its issuer would challenge is paid without prepareThreeDS or a challenge, and completes', async () => {
    const { externalId, outcome } = await payOnPage(stack, 'card-no-3ds', TEST_CARDS.challenge);
    expect(outcome).toEqual({ status: 'PAID', text: 'Payment confirmed. Thank you! Your order is paid.' });
    const view = await waitForCardPayment(stack, externalId, ['PAID']);
    expect(view).toMatchObject({ status: 'PAID', last4: '3220' });
    // No 3DS, no ECI recorded.
    expect(view).not.toHaveProperty('eci');
    // Endpoint 2 got the card and its token, no 3DS data; no 3DS session was ever opened.
    const details = await providerPayment(stack, externalId);
    expect(details).toMatchObject({ cardTokenVerified: true, last4: '3220' });
    expect(details).not.toHaveProperty('sessionId');
    expect(details).not.toHaveProperty('threeDS');
    expect(events(lines, 'sandbox.three_ds_session_opened')).toEqual([]);
  });
});

describe("the spec's order of steps, the default (a module that takes the spec's arguments only: SANDBOX_SHIELD_THREE_DS=spec)", () => {
  const { stack, lines } = stackAndItsLog({ SANDBOX_SHIELD_THREE_DS: 'spec' });

  test('prepareThreeDS runs before module.encrypt, without the card token, and the payment completes with its 3DS result', async () => {
    const { externalId, outcome } = await payOnPage(stack, 'card-spec-order', TEST_CARDS.frictionless);
    expect(outcome.status).toBe('PAID');
    expect(await waitForCardPayment(stack, externalId, ['PAID'])).toMatchObject({ status: 'PAID', last4: '1000' });
    // This module refuses a token at prepareThreeDS: the session opened without one, so the token came after.
    expect(events(lines, 'sandbox.three_ds_session_opened').map((line) => line.forCard)).toEqual([false]);
    expect(await providerPayment(stack, externalId)).toMatchObject({
      cardTokenVerified: true,
      sessionId: expect.stringMatching(/^3ds_/) as unknown,
      threeDS: { eci: '05' },
    });
  });
});

describe('encrypt first (PAYMENT_SHIELD_STEP_ORDER=encrypt-first: a module that takes the card token at prepareThreeDS)', () => {
  const { stack, lines } = stackAndItsLog({ PAYMENT_SHIELD_STEP_ORDER: 'encrypt-first' });

  test('the challenge card is challenged from its token, and paid', async () => {
    const { externalId, outcome } = await payOnPage(stack, 'card-encrypt-first', TEST_CARDS.challenge, {
      approveChallenge: true,
    });
    expect(outcome.status).toBe('PAID');
    expect(await waitForCardPayment(stack, externalId, ['PAID'])).toMatchObject({ last4: '3220' });
    expect(events(lines, 'sandbox.three_ds_session_opened').map((line) => line.forCard)).toEqual([true]);
  });
});

/** The sandbox's module made to take the spec's arguments one by one, in the spec's order, and nothing else. */
const POSITIONAL_MODULE = `(function () {
  var helper = window.ShieldHelper;
  var name = helper.getModuleName();
  var module = window[name];
  var number = (value, what) => { if (typeof value !== 'number') throw new TypeError(what + ' must be passed on its own'); return value; };
  window.ShieldHelper = Object.freeze({
    getModuleName: helper.getModuleName,
    convertDecimalToCents: helper.convertDecimalToCents,
    prepareThreeDS: (amount, installments, currency) => helper.prepareThreeDS({ amount: number(amount, 'amount'), installments, currency }),
  });
  window[name] = Object.freeze({
    setPublicKey: module.setPublicKey,
    encrypt: (cardNumber, holderName, expMonth, expYear, cvv) => module.encrypt({ number: cardNumber, holderName, expMonth: number(expMonth, 'expMonth'), expYear, cvv }),
  });
})();`;

describe("another provider's module (PAYMENT_SHIELD_ARGUMENTS=positional): settings without currencies, 3DS answers with fields the spec does not list", () => {
  let stack: EngineHarness;
  let shield: Awaited<ReturnType<typeof startShieldVariant>> | undefined;
  // The seed profile, like a real provider, serves no key: the one the engine is configured with is used.
  let publicKey = '';
  const rewrite = (path: string, body: Record<string, unknown>): Record<string, unknown> => {
    if (path === '/shield/settings') {
      const { currencies: _dropped, ...rest } = body;
      return { ...rest, region: 'br-1' };
    }
    if (path.startsWith('/shield/sessions') && typeof body.threeDS === 'object' && body.threeDS !== null)
      return { ...body, acsTransId: 'acs-1', threeDS: { ...body.threeDS, dsTransId: 'ds-1' } };
    return body;
  };
  beforeAll(async () => {
    const variant = await startShieldVariant(rewrite, POSITIONAL_MODULE);
    shield = variant;
    stack = await startEngineHarness(
      { PAYMENT_SHIELD_ARGUMENTS: 'positional' },
      {
        engineSettings: (sandbox) => {
          variant.target.url = sandbox.sandboxUrl;
          publicKey = sandbox.shieldPublicKeyPem;
          return {
            PAYMENT_SHIELD_SCRIPT_URL: `${variant.url}/shield/shield.js`,
            PAYMENT_SHIELD_SETTINGS_URL: `${variant.url}/shield/settings`,
          };
        },
      },
    );
  });
  afterAll(async () => {
    await stack?.close();
    await shield?.close();
  });

  test('a frictionless and a challenge card are paid: no currencies restricts nothing, 3DS fields the spec does not list are dropped, not refused', async () => {
    const settings = (await (
      await fetch(`${shield?.url ?? ''}/shield/settings?publicKey=${encodeURIComponent(publicKey)}`)
    ).json()) as Record<string, unknown>;
    expect(settings).toMatchObject({ moduleName: 'SandboxShield', region: 'br-1' });
    expect(settings).not.toHaveProperty('currencies');
    const frictionless = await payOnPage(stack, 'card-variant-frictionless', TEST_CARDS.frictionless);
    expect(frictionless.outcome.status).toBe('PAID');
    const challenged = await payOnPage(stack, 'card-variant-challenge', TEST_CARDS.challenge, {
      approveChallenge: true,
    });
    expect(challenged.outcome.status).toBe('PAID');
    expect(await providerPayment(stack, challenged.externalId)).toMatchObject({ threeDS: { eci: '05' } });
    expect(await providerPayment(stack, challenged.externalId)).not.toHaveProperty('threeDS.dsTransId');
  });
});

describe('the security module configured (seed profile: no /shield/public-key; the default base address dead)', () => {
  let stack: EngineHarness;
  let keyPem = '';
  let sandboxUrl = '';
  const keyFile = path.join(keyDir, 'provider-shield-key.pem');
  beforeAll(async () => {
    stack = await startEngineHarness(
      // Nothing listens on port 9: only the explicit addresses can make the page work.
      {
        SANDBOX_PROFILE: 'seed',
        PROVIDER_CALLBACK_SIGNATURES: 'optional',
        PAYMENT_BROWSER_BASE_URL: 'http://127.0.0.1:9',
      },
      {
        engineSettings: (sandbox) => {
          keyPem = sandbox.shieldPublicKeyPem;
          sandboxUrl = sandbox.sandboxUrl;
          writeFileSync(keyFile, keyPem);
          // Another spelling of the sandbox's host, so these addresses are not derived from any base.
          const shield = `${sandbox.sandboxUrl.replace('127.0.0.1', 'localhost')}/shield`;
          return {
            PAYMENT_SHIELD_SCRIPT_URL: `${shield}/shield.js`,
            PAYMENT_SHIELD_SETTINGS_URL: `${shield}/settings`,
            PAYMENT_SHIELD_PUBLIC_KEY: `file:${keyFile}`,
          };
        },
      },
    );
  });
  afterAll(() => stack?.close());

  test('with the key as a file (file:<path>), a frictionless and a challenge card are paid', async () => {
    expect((await fetch(`${sandboxUrl}/shield/public-key`)).status).toBe(404);
    const frictionless = await payOnPage(stack, 'card-configured-file', TEST_CARDS.frictionless);
    expect(frictionless.outcome.status).toBe('PAID');
    expect(await waitForCardPayment(stack, frictionless.externalId, ['PAID'])).toMatchObject({ last4: '1000' });
    // The challenge frame comes from the configured address's origin too.
    const challenged = await payOnPage(stack, 'card-configured-challenge', TEST_CARDS.challenge, {
      approveChallenge: true,
    });
    expect(challenged.outcome.status).toBe('PAID');
    expect(await waitForCardPayment(stack, challenged.externalId, ['PAID'])).toMatchObject({ last4: '3220' });
  });

  test('with the key as PEM text (an API process of its own), a card is paid', async () => {
    const port = await freePort();
    await stack.spawnApiProcess(port, { PAYMENT_SHIELD_PUBLIC_KEY: keyPem });
    const { externalId, outcome } = await payOnPage(stack, 'card-configured-pem', TEST_CARDS.frictionless, {
      origin: `http://127.0.0.1:${port}`,
    });
    expect(outcome.status).toBe('PAID');
    expect(await waitForCardPayment(stack, externalId, ['PAID'])).toMatchObject({ last4: '1000' });
  });

  test('an opaque key (no PEM) is the key itself: the page hands it to the module as it is', async () => {
    const port = await freePort();
    await stack.spawnApiProcess(port, { PAYMENT_SHIELD_PUBLIC_KEY: 'pk_test_51OpaqueKey' });
    const created = await createCardPayment(stack, 'card-opaque-key');
    const page = await fetch(created.checkoutUrl.replace(stack.apiUrl, `http://127.0.0.1:${port}`));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('"publicKey":"pk_test_51OpaqueKey"');
  });

  test('a value that is no key or no address stops the API at start-up, naming the setting', async () => {
    const notAKey = '-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n';
    await expect(stack.spawnApiProcess(await freePort(), { PAYMENT_SHIELD_PUBLIC_KEY: notAKey })).rejects.toThrow(
      /PAYMENT_SHIELD_PUBLIC_KEY: is PEM text but not a public key/,
    );
    await expect(stack.spawnApiProcess(await freePort(), { PAYMENT_SHIELD_PUBLIC_KEY: 'two words' })).rejects.toThrow(
      /PAYMENT_SHIELD_PUBLIC_KEY: is neither PEM text nor a file/,
    );
    await expect(stack.spawnApiProcess(await freePort(), { PAYMENT_SHIELD_SCRIPT_URL: 'shield.js' })).rejects.toThrow(
      /PAYMENT_SHIELD_SCRIPT_URL/,
    );
    await expect(stack.spawnApiProcess(await freePort(), { PAYMENT_SHIELD_SETTINGS_URL: 'settings' })).rejects.toThrow(
      /PAYMENT_SHIELD_SETTINGS_URL/,
    );
  });

  test('a key file that cannot be read: the checkout answers 503 with Retry-After, naming the setting, never 500', async () => {
    const port = await freePort();
    await stack.spawnApiProcess(port, { PAYMENT_SHIELD_PUBLIC_KEY: path.join(keyDir, 'missing.pem') });
    const created = await createCardPayment(stack, 'card-key-missing');
    const answer = await fetch(created.checkoutUrl.replace(stack.apiUrl, `http://127.0.0.1:${port}`));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).not.toBeNull();
    expect(await answer.json()).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      message: expect.stringContaining('PAYMENT_SHIELD_PUBLIC_KEY') as unknown,
    });
  });

  test("another environment's key, or a script that is not there: the page says the provider cannot be reached and takes no card", async () => {
    const otherKey = path.join(keyDir, 'other.pem');
    writeFileSync(
      otherKey,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    );
    const wrongKey = await freePort();
    const wrongScript = await freePort();
    await stack.spawnApiProcess(wrongKey, { PAYMENT_SHIELD_PUBLIC_KEY: otherKey });
    await stack.spawnApiProcess(wrongScript, { PAYMENT_SHIELD_SCRIPT_URL: `${sandboxUrl}/shield/missing.js` });
    const unavailable =
      'The payment provider cannot be reached right now, so no card can be taken. No payment was made; try again later.';

    const keyRefused = await payOnPage(stack, 'card-wrong-key', TEST_CARDS.frictionless, {
      origin: `http://127.0.0.1:${wrongKey}`,
    });
    expect(keyRefused.outcome).toEqual({ status: '', text: unavailable });

    const created = await createCardPayment(stack, 'card-no-script');
    const page = await openCheckout(
      browser,
      created.checkoutUrl.replace(stack.apiUrl, `http://127.0.0.1:${wrongScript}`),
    );
    await expect(page.locator('#checkout-status[data-final]').textContent()).resolves.toBe(unavailable);
    await expect(page.getByRole('button', { name: /^Pay/ }).isDisabled()).resolves.toBe(true);
    await page.close();
    for (const externalId of [keyRefused.externalId, created.externalId]) {
      expect((await stack.api<{ status: string }>('GET', `/v1/card-payments/${externalId}`)).body.status).toBe(
        'AWAITING_CARD',
      );
    }
  });
});
