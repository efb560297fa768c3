/**
 * 3DS cannot be skipped by whoever holds a checkout link: while the provider's settings enable 3DS, a pay call
 * without its result (the page's step 5 left out, a card its issuer would not challenge) is refused 422 before
 * the order moves or anything reaches the provider; the same order paid with the security module's result is
 * taken, and the ECI of that authentication is recorded on the card payment and shown in its view.
 */
import type { CardPaymentResponse } from '../../src/api/card-payments/schemas';
import { TEST_CARDS } from '../../sandbox/products/card-payments/test-cards';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { createCardPayment, payAtCheckout, waitForCardPayment } from './card-checkout';

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness({}, { providerProxy: true });
});
afterAll(() => stack?.close());

const authorizations = () => {
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  return stack.provider.count('POST', '/api/v1/card/payments');
};

test("a payment without 3DS data is refused 422 while the provider's settings enable 3DS, and nothing reaches the provider; paid with 3DS, its ECI is recorded and shown", async () => {
  const created = await createCardPayment(stack, 'card-3ds-skipped');
  const before = authorizations();
  const skipped = await payAtCheckout(stack, created, TEST_CARDS.frictionless, { threeDS: false });
  expect(skipped.status).toBe(422);
  expect(skipped.body).toMatchObject({
    code: 'THREE_DS_REQUIRED',
    issues: [{ path: 'threeDS', message: expect.stringContaining("provider's 3DS settings") }],
  });
  expect(authorizations()).toBe(before);
  // The order still awaits a card: the buyer can pay it through the page.
  expect((await stack.api<CardPaymentResponse>('GET', `/v1/card-payments/${created.externalId}`)).body).toMatchObject({
    status: 'AWAITING_CARD',
    transitions: [expect.objectContaining({ to: 'AWAITING_CARD' })],
  });

  const paid = await payAtCheckout(stack, created, TEST_CARDS.frictionless);
  expect(paid.body).toMatchObject({ status: 'PENDING', last4: '1000' });
  expect(authorizations()).toBe(before + 1);
  // The sandbox's issuer authenticates a Visa frictionless with ECI 05 (Mastercard's 02).
  expect(await waitForCardPayment(stack, created.externalId, ['PAID'])).toMatchObject({ status: 'PAID', eci: '05' });
});
