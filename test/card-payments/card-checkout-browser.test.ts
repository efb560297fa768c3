/**
 * Card payments through the real stack, in a real browser: a payment created with POST /v1/card-payments,
 * its checkout page opened in Chromium (playwright-core; CHROMIUM_PATH or /usr/bin/chromium), a card
 * typed into it, the sandbox's shield.js and 3DS (frictionless or its challenge iframe), endpoint 2 called
 * by the engine's API, the workflow confirming the outcome with endpoint 3. Then nothing of the cards'
 * numbers or security codes may be found in Temporal's decoded histories, the logs or the engine's files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Payload } from '@temporalio/common';
import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../sandbox/products/card-payments/test-cards';
import type { CardPaymentCreated } from '../../src/api/card-payments/schemas';
import { createPayloadCodec } from '../../src/temporal/connection';
import { ENCRYPTED_ENCODING, payloadEncoding } from '../../src/temporal/payload-codec';
import { cardPaymentWorkflowId } from '../../src/contracts/card-payment';
import { startEngineHarness } from '../helpers/engine-harness';
import { forThisFile } from '../helpers/for-this-file';
import { recordHistory } from '../helpers/record-history';
import {
  browserForThisFile,
  challengeFrame,
  createCardPayment,
  openCheckout,
  pageOutcome,
  pay,
  PAYER,
  TEST_CVV,
  digitsAlone,
  typeCard,
  waitForCardPayment,
} from './card-checkout';

const logLines: string[] = [];
const paymentIds: string[] = [];
const stack = forThisFile(() => startEngineHarness({}, { logs: (line) => logLines.push(line) }));
const browser = browserForThisFile();

async function newPayment(label: string, fields: Record<string, unknown> = {}) {
  const created = await createCardPayment(stack, label, fields);
  paymentIds.push(created.externalId);
  return created;
}

/** What the buyer does before any outcome: a new payment's checkout opened, `card` typed, Pay pressed. */
async function payWithCard(label: string, card: string) {
  const created = await newPayment(label);
  const page = await openCheckout(browser, created.checkoutUrl);
  await typeCard(page, card);
  await pay(page);
  return { created, page };
}

/** The page, still open, shows the outcome (`status`, in `text`) without a reload; the payment reaches it: its view. */
async function endsAs(page: Page, created: CardPaymentCreated, status: 'PAID' | 'FAILED', text: unknown) {
  expect(await pageOutcome(page)).toEqual({ status, text });
  return waitForCardPayment(stack, created.externalId, [status]);
}

/** What the page says of a VISA card the provider or its issuer declined. */
const declinedText = (last4: string, reason: string) =>
  `Your card was declined (VISA ending in ${last4}): ${reason}. No payment was made. To try another card, ask the merchant for a new payment link.`;

test('a frictionless card: created through the API, paid on the checkout page, PAID once the provider confirms', async () => {
  const created = await newPayment('card-frictionless', { installmentCount: 3 });
  expect(created).toEqual({
    externalId: created.externalId,
    status: 'AWAITING_CARD',
    checkoutUrl: expect.stringMatching(
      new RegExp(`^${stack.apiUrl}/checkout/${created.externalId}\\?token=`),
    ) as unknown,
    expiresAt: expect.any(String) as unknown,
    workflowId: `card-payment:${created.externalId}`,
  });

  const page = await openCheckout(browser, created.checkoutUrl);
  await expect(page.locator('#amount').textContent()).resolves.toBe('R$ 100,10 in 3 installments');
  for (const [label, autocomplete] of [
    ['Name on card', 'cc-name'],
    ['Card number', 'cc-number'],
    ['Expiry month (MM)', 'cc-exp-month'],
    ['Expiry year (YYYY)', 'cc-exp-year'],
    ['Security code', 'cc-csc'],
  ]) {
    await expect(page.getByLabel(label ?? '').getAttribute('autocomplete')).resolves.toBe(autocomplete);
  }
  await typeCard(page, TEST_CARDS.frictionless);
  if (process.env.SCREENSHOT_DIR)
    await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, 'checkout.png') });
  await pay(page);
  // Authorized first, then followed to its outcome without a reload.
  await expect(page.locator('#checkout-status[data-status=PENDING]').textContent()).resolves.toBe(
    'Payment authorized. Confirming with your bank... (VISA ending in 1000)',
  );
  await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('');
  const paid = await endsAs(page, created, 'PAID', 'Payment confirmed. Thank you! Your order is paid.');
  expect(paid).toMatchObject({
    status: 'PAID',
    amount: 100.1,
    installmentCount: 3,
    brand: 'VISA',
    last4: '1000',
    netValue: 96.11,
    providerStatus: 'PAID',
  });
  expect(paid.transitions.map((transition) => transition.to)).toEqual([
    'AWAITING_CARD',
    'AUTHORIZING',
    'PENDING',
    'PAID',
  ]);

  // The link is single-purpose: the paid order's page only says so, and paying again is refused.
  await page.goto(created.checkoutUrl);
  await expect(page.getByRole('status').textContent()).resolves.toBe('This order is paid. Thank you!');
  await page.close();
  await recordHistory(
    stack.temporal.client,
    cardPaymentWorkflowId(created.externalId),
    'card-payment-answer-binding-paid',
  );
});

test('the challenge card: the buyer approves in the issuer iframe, and the payment is PAID', async () => {
  const { created, page } = await payWithCard('card-challenge-approved', TEST_CARDS.challenge);
  await challengeFrame(page).getByRole('button', { name: 'Approve' }).click();
  const paid = await endsAs(page, created, 'PAID', 'Payment confirmed. Thank you! Your order is paid.');
  // The ECI of the authentication the provider accepted the payment with is the card payment's.
  expect(paid).toMatchObject({
    brand: 'VISA',
    last4: '3220',
    eci: '05',
  });
  await page.close();
});

test('the challenge card: the buyer denies, nothing reaches the provider, and the payment is FAILED', async () => {
  const { created, page } = await payWithCard('card-challenge-denied', TEST_CARDS.challenge);
  await challengeFrame(page).getByRole('button', { name: 'Deny' }).click();
  const failed = await endsAs(
    page,
    created,
    'FAILED',
    'You did not confirm the payment with your bank. No payment was made. To try again, ask the merchant for a new payment link.',
  );
  expect(failed).toMatchObject({ failureReason: 'the buyer denied the 3DS challenge' });
  expect(failed.providerPaymentId).toBeUndefined();
  expect(failed.transitions.map((transition) => transition.to)).toEqual(['AWAITING_CARD', 'FAILED']);
  await page.close();
});

test('a card the issuer declines: accepted PENDING by the provider, then FAILED with the reason', async () => {
  const { created, page } = await payWithCard('card-declined', TEST_CARDS.declined);
  // Accepted by the provider, declined by the issuer a moment later: the page, still open, says so.
  const failed = await endsAs(page, created, 'FAILED', declinedText('0002', 'declined by the card issuer'));
  expect(failed).toMatchObject({
    failureReason: 'declined by the card issuer',
    providerStatus: 'DECLINED',
    last4: '0002',
  });
  expect(failed.transitions.map((transition) => transition.to)).toEqual([
    'AWAITING_CARD',
    'AUTHORIZING',
    'PENDING',
    'FAILED',
  ]);
  await page.close();
});

test('a card refused at once (insufficient funds): FAILED with the provider reason, shown on the page', async () => {
  const { created, page } = await payWithCard('card-insufficient', TEST_CARDS.insufficientFunds);
  const failed = await endsAs(
    page,
    created,
    'FAILED',
    expect.stringMatching(
      /^Your card was declined \(VISA ending in 9995\): .*insufficient funds.*\. No payment was made\. To try another card, ask the merchant for a new payment link\.$/,
    ),
  );
  expect(failed).toMatchObject({
    failureReason: expect.stringContaining('insufficient funds') as unknown,
  });
  await page.close();
});

test('the same request again answers the same checkout; a different one under the same externalId is 409', async () => {
  const body = { externalId: `card-idem-${Date.now()}`, amount: 10, installmentCount: 1, payer: PAYER };
  const first = await stack.api('POST', '/v1/card-payments', body);
  const again = await stack.api('POST', '/v1/card-payments', body);
  expect(again.status).toBe(201);
  expect(again.body).toEqual(first.body);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect((await stack.api('POST', '/v1/card-payments', { ...body, amount: 11 })).status).toBe(409);
  paymentIds.push(body.externalId);
});

test('bad requests and bad links start nothing and say why', async () => {
  const request = { externalId: 'bad-request', amount: 10, installmentCount: 1, payer: PAYER };
  const badShape = await stack.api<{ issues: { path: string }[] }>('POST', '/v1/card-payments', {
    ...request,
    amount: 10.001,
    installmentCount: 13,
  });
  expect(badShape.status).toBe(400);
  expect(badShape.body.issues.map((issue) => issue.path).sort()).toEqual(['amount', 'installmentCount']);
  const badRules = await stack.api<{ issues: { path: string }[] }>('POST', '/v1/card-payments', {
    ...request,
    payer: { ...PAYER, document: '529.982.247-26', phone: '123' },
  });
  expect(badRules.status).toBe(422);
  expect(badRules.body.issues.map((issue) => issue.path).sort()).toEqual(['payer.document', 'payer.phone']);
  expect((await stack.api('GET', '/v1/card-payments/bad-request')).status).toBe(404);

  const created = await newPayment('card-bad-link');
  const forged = created.checkoutUrl.replace(/token=\d+\./, 'token=1999999999999.');
  expect((await fetch(forged)).status).toBe(401);
  const otherPayment = created.checkoutUrl.replace(created.externalId, 'someone-else');
  expect((await fetch(otherPayment)).status).toBe(401);
  // The page's status reads need the link's own token too.
  expect((await fetch(forged.replace('?token=', '/status?token='))).status).toBe(401);
  const status = await fetch(created.checkoutUrl.replace('?token=', '/status?token='));
  expect([status.status, await status.json()]).toEqual([200, { status: 'AWAITING_CARD' }]);
  const wrongCard = await fetch(`${stack.apiUrl}/checkout/${created.externalId}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token: new URL(created.checkoutUrl).searchParams.get('token'),
      card: { holderName: 'A', number: '4000000000001001', expiryMonth: '12', expiryYear: '2099', cvv: TEST_CVV },
      cardToken: 'x',
      sessionId: 's',
      threeDS: { cavv: 'c', eci: '05', version: '2.2.0' },
    }),
  });
  expect(wrongCard.status).toBe(422);
  // The answer's random ids (the payment's in `instance`, the request's) can hold the CVV's four digits by chance.
  const { instance, requestId, ...said } = (await wrongCard.json()) as Record<string, unknown>;
  expect([instance, typeof requestId]).toEqual([`/checkout/${created.externalId}/pay`, 'string']);
  const text = JSON.stringify(said);
  expect(text).toContain('card.number');
  expect(text).not.toContain('4000000000001001');
  expect(text).not.toContain(TEST_CVV);
});

/** Every payload of the workflow's history, decrypted by the engine's codec, as text. */
async function decodedHistory(workflowId: string): Promise<string> {
  const history = await stack.temporal.client.workflow.getHandle(workflowId).fetchHistory();
  const codec = createPayloadCodec(stack.config);
  const texts: string[] = [];
  const visit = async (value: unknown): Promise<void> => {
    if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return;
    const record = value as Record<string, unknown>;
    if (record.data instanceof Uint8Array && record.metadata !== null && typeof record.metadata === 'object') {
      // Search attributes are stored in clear (they carry no personal data); everything else is decrypted.
      const payload = record as Payload;
      const [decoded] = payloadEncoding(payload) === ENCRYPTED_ENCODING ? await codec.decode([payload]) : [payload];
      texts.push(Buffer.from(decoded?.data ?? new Uint8Array()).toString('utf8'));
      return;
    }
    for (const child of Array.isArray(value) ? (value as unknown[]) : Object.values(record)) await visit(child);
  };
  await visit(history);
  return texts.join('\n');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

const CARD_NUMBERS = Object.values(TEST_CARDS);
/** A number (also as typed, in groups of four) or the code, as a token of its own (not inside a longer run of digits). */
const found = (text: string): string[] => [
  ...CARD_NUMBERS.filter(
    (number) => digitsAlone(number, text) || text.includes(number.replace(/(\d{4})(?=\d)/g, '$1 ')),
  ),
  ...(digitsAlone(TEST_CVV, text) ? [TEST_CVV] : []),
];

test('no card number or security code is in the decoded Temporal histories, the logs, or any file of the engine', async () => {
  expect(paymentIds.length).toBeGreaterThanOrEqual(5);
  const histories = await Promise.all(paymentIds.map((id) => decodedHistory(cardPaymentWorkflowId(id))));
  // The decoding works: the payer's e-mail (personal data, encrypted at rest) is there in clear.
  expect(histories.join('\n')).toContain(PAYER.email);
  expect(histories.join('\n')).toContain('"last4":"1000"');
  expect(found(histories.join('\n'))).toEqual([]);

  // Every log line of the real payments, at debug level, from each service that saw the card: the API that took it, the sandbox that charged it.
  const events = logLines.map((line) => JSON.parse(line) as { service?: string; event?: string });
  expect(events.some((line) => line.service === 'engine-api' && line.event === 'checkout.provider_answered')).toBe(
    true,
  );
  expect(events.some((line) => line.service === 'sandbox' && line.event === 'sandbox.card_payment_created')).toBe(true);
  expect(found(logLines.join('\n'))).toEqual([]);

  const files = filesUnder(stack.config.DATA_DIR);
  expect(files.some((file) => /\.(sqlite|db)$/.test(file))).toBe(true);
  for (const file of files)
    expect({ file, found: found(readFileSync(file).toString('latin1')) }).toEqual({ file, found: [] });
});
