/**
 * A card payment's deadlines through the real stack: a checkout nobody pays in time is EXPIRED (and its
 * page, still open in Chromium, can no longer pay); a payment whose answer from endpoint 2 never reached
 * the workflow is settled by the checkout's record of that answer at the authorization deadline, or (the API
 * crashed before recording it) is NEEDS_REVIEW, then settled by the provider's signed callback, which names
 * the payment, or by an operator who names it (recheck) or finds none (close).
 */
import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../sandbox/products/card-payments/test-cards';
import type { CardPaymentResponse } from '../../src/api/card-payments/schemas';
import { cardAuthorizationKey } from '../../src/card-payments/card-authorization-intent';
import { cardPaymentWorkflowId } from '../../src/contracts/card-payment';
import { startEngineHarness } from '../helpers/engine-harness';
import { forThisFile } from '../helpers/for-this-file';
import { recordHistory } from '../helpers/record-history';
import { pollUntil } from '../../src/util/poll';
import {
  chargeAtProvider,
  createCardPayment,
  launchBrowser,
  openCheckout,
  pay,
  typeCard,
  waitForCardPayment,
  recheckCardPayment,
  startAuthorization,
} from './card-checkout';

const CHECKOUT_TTL_MS = 4_000;
const stack = forThisFile(() =>
  startEngineHarness({ CARD_CHECKOUT_TTL_MS: String(CHECKOUT_TTL_MS), CARD_AUTHORIZE_DEADLINE_MS: '1000' }),
);
const browser = forThisFile(launchBrowser);

const statusText = (page: Page) => page.locator('#checkout-status').textContent();

test('a checkout nobody pays before expiresAt: EXPIRED, and the page left open can no longer pay', async () => {
  const created = await createCardPayment(stack, 'card-expired');
  expect(Date.parse(created.expiresAt) - Date.now()).toBeLessThanOrEqual(CHECKOUT_TTL_MS);
  const page = await openCheckout(browser, created.checkoutUrl);
  await typeCard(page, TEST_CARDS.frictionless);

  const expired = await waitForCardPayment(stack, created.externalId, ['EXPIRED'], 20_000);
  expect(expired.transitions.map((transition) => transition.to)).toEqual(['AWAITING_CARD', 'EXPIRED']);

  await pay(page);
  await expect(page.locator('#checkout-status[data-kind=error]').waitFor()).resolves.toBeUndefined();
  await expect(statusText(page)).resolves.toBe(
    'This checkout has expired. No payment was made. To try again, ask the merchant for a new payment link.',
  );
  const reopened = await fetch(created.checkoutUrl);
  expect(reopened.status).toBe(410);
  await expect(reopened.text()).resolves.toContain('This checkout link has expired');
  await page.close();
  expect(browser.pageErrors).toEqual([]);
});

/** The API's first step at the checkout, then a "crash": the workflow never hears from the provider. */
async function authorizingThenLost(amount: number): Promise<string> {
  const created = await createCardPayment(stack, 'card-review', { amount });
  const order = await startAuthorization(stack, created.externalId);
  expect(order).toMatchObject({ externalId: created.externalId, amountCents: Math.round(amount * 100) });
  const review = await waitForCardPayment(stack, created.externalId, ['NEEDS_REVIEW']);
  expect(review.reviewReason).toMatch(/did not reach the payment in time/);
  return created.externalId;
}

test('an operator names the payment the workflow never heard of: recheck settles it; one with no charge is closed FAILED', async () => {
  const found = await authorizingThenLost(30);
  const charged = await chargeAtProvider(stack, found, 30);
  const rechecked = await recheckCardPayment(stack, found, charged.data.id);
  expect(rechecked.status).toBe(200);
  expect(['PENDING', 'PAID']).toContain(rechecked.body.status);
  expect(await waitForCardPayment(stack, found, ['PAID'])).toMatchObject({
    providerPaymentId: charged.data.id,
    callbacksReceived: 0,
  });
  // Final: nothing left to ask, nothing to close.
  expect((await recheckCardPayment(stack, found)).status).toBe(409);
  expect((await stack.api('POST', `/v1/card-payments/${found}/close`, { reason: 'late' })).status).toBe(409);

  const none = await authorizingThenLost(31);
  const closed = await stack.api<CardPaymentResponse>('POST', `/v1/card-payments/${none}/close`, {
    reason: 'no charge at the provider',
  });
  expect(closed.status).toBe(200);
  expect(closed.body).toMatchObject({
    status: 'FAILED',
    failureReason: 'closed by an operator: no charge at the provider',
  });
  expect(closed.body.transitions.map((transition) => transition.to)).toEqual([
    'AWAITING_CARD',
    'AUTHORIZING',
    'NEEDS_REVIEW',
    'FAILED',
  ]);
});

test("endpoint 2's answer recorded by the checkout, its signal lost: read at the authorization deadline, PAID without review", async () => {
  const created = await createCardPayment(stack, 'card-recorded', { amount: 25 });
  // The checkout's part up to its crash: the card submitted, the intent claimed, endpoint 2 called, its answer recorded.
  await startAuthorization(stack, created.externalId);
  const key = cardAuthorizationKey(created.externalId);
  await stack.intents.claim(key, 'checkout:crashed');
  const charged = await chargeAtProvider(stack, created.externalId, 25);
  await stack.intents.record(key, 'checkout:crashed', { state: 'SENT', providerId: String(charged.data.id) });

  const paid = await waitForCardPayment(stack, created.externalId, ['PAID']);
  expect(paid).toMatchObject({ providerPaymentId: charged.data.id, callbacksReceived: 0 });
  expect(paid.transitions.map((transition) => transition.to)).toEqual([
    'AWAITING_CARD',
    'AUTHORIZING',
    'PENDING',
    'PAID',
  ]);
  await recordHistory(
    stack.temporal.client,
    cardPaymentWorkflowId(created.externalId),
    'card-payment-answer-binding-record-read',
  );
});

test("endpoint 2's answer lost before the checkout recorded it: NEEDS_REVIEW; a signed callback names the payment, an unsigned one does not", async () => {
  const externalId = await authorizingThenLost(42);
  const charged = await chargeAtProvider(stack, externalId, 42, { callback: true });
  const signed =
    (stack.config.SANDBOX_CALLBACK_SIGNATURE ?? (stack.config.SANDBOX_PROFILE === 'seed' ? 'none' : 'hmac')) === 'hmac';
  if (!signed) {
    // The provider's callback arrives unsigned: a "look now" that finds no payment id; an operator names it.
    await pollUntil(
      async () => {
        const view = (await recheckCardPayment(stack, externalId)).body;
        return view.callbacksReceived >= 1 ? view : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 250, description: 'the unsigned callback to arrive' },
    );
    expect((await stack.api<CardPaymentResponse>('GET', `/v1/card-payments/${externalId}`)).body).toMatchObject({
      status: 'NEEDS_REVIEW',
      checksMade: 0,
    });
    await recheckCardPayment(stack, externalId, charged.data.id);
  }
  const paid = await waitForCardPayment(stack, externalId, ['PAID']);
  expect(paid).toMatchObject({ providerPaymentId: charged.data.id, last4: '1111', netValue: 40.32 });
  expect(paid.callbacksReceived).toBeGreaterThanOrEqual(1);
  expect(paid.transitions.map((transition) => transition.to)).toEqual([
    'AWAITING_CARD',
    'AUTHORIZING',
    'NEEDS_REVIEW',
    'PAID',
  ]);
});

test('an operator naming a payment of another amount settles nothing: it is refused and named; the bound one settles it', async () => {
  const externalId = await authorizingThenLost(50);
  const cheaper = await chargeAtProvider(stack, externalId, 0.5);
  const rechecked = await recheckCardPayment(stack, externalId, cheaper.data.id);
  expect(rechecked.status).toBe(200);
  expect(rechecked.body).toMatchObject({
    status: 'NEEDS_REVIEW',
    reviewReason: expect.stringMatching(/is of 0\.5, not the order's 50/) as unknown,
  });
  expect(rechecked.body.providerPaymentId).toBeUndefined();
  const bound = await chargeAtProvider(stack, externalId, 50);
  await recheckCardPayment(stack, externalId, bound.data.id);
  expect(await waitForCardPayment(stack, externalId, ['PAID'])).toMatchObject({ providerPaymentId: bound.data.id });
  await recordHistory(
    stack.temporal.client,
    cardPaymentWorkflowId(externalId),
    'card-payment-answer-binding-after-refusal',
  );
});
