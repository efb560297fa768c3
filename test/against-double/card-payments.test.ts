/**
 * Card payments against the provider double, in Chromium: the checkout page loads the double's security
 * module (its own URL, an opaque public key, settings without a currency list), runs the document's steps
 * in its order with its arguments, the engine calls endpoint 2, and the order is settled by what the
 * document shows (the creation's data.id, the callback's externalReference echo, the amount) while
 * endpoint 3 answers only id, status and amount.
 */
import { CHALLENGE_CARD } from '../doubles/double-browser';
import {
  browserForThisFile,
  createCardPayment,
  openCheckout,
  pageOutcome,
  pay,
  typeCard,
  waitForCardPayment,
} from '../card-payments/card-checkout';
import { forThisFile } from '../helpers/for-this-file';
import { startAgainstDouble } from './double-stack';

const FRICTIONLESS_CARD = '5555555555554444';
const PAID = { status: 'PAID', text: 'Payment confirmed. Thank you! Your order is paid.' };

const stack = forThisFile(startAgainstDouble);
const browser = browserForThisFile();

/** A checkout link whose page the engine serves (a key it cannot use answers 503: said at once, not as a missing form). */
async function checkoutFor(label: string, fields: Record<string, unknown> = {}) {
  const created = await createCardPayment(stack.engine, label, fields);
  const served = await fetch(created.checkoutUrl);
  expect({ status: served.status, body: served.ok ? '' : await served.text() }).toEqual({ status: 200, body: '' });
  return created;
}

test('a card without a challenge: paid on the checkout page, PAID, one payment at the double', async () => {
  const created = await checkoutFor('dbl-card', { installmentCount: 2 });
  const page = await openCheckout(browser, created.checkoutUrl);
  await typeCard(page, FRICTIONLESS_CARD);
  await pay(page);
  expect(await pageOutcome(page)).toEqual(PAID);

  const paid = await waitForCardPayment(stack.engine, created.externalId, ['PAID']);
  expect(paid).toMatchObject({ amount: 100.1, installmentCount: 2, brand: 'MASTERCARD', last4: '4444' });
  const payments = await stack.control.operations({ clientId: created.externalId });
  expect(payments).toHaveLength(1);
  expect(payments[0]).toMatchObject({ kind: 'card-payment', amountCents: 10010, state: 'COMPLETO' });
  await page.close();
});

test("the challenge card: the buyer authorizes in the issuer's frame, PAID, one payment at the double", async () => {
  const created = await checkoutFor('dbl-card-3ds');
  const page = await openCheckout(browser, created.checkoutUrl);
  await typeCard(page, CHALLENGE_CARD);
  await pay(page);
  await page.frameLocator('iframe[title="Autenticação do emissor"]').getByRole('button', { name: 'Autorizar' }).click();
  expect(await pageOutcome(page)).toEqual(PAID);

  expect(await waitForCardPayment(stack.engine, created.externalId, ['PAID'])).toMatchObject({
    brand: 'VISA',
    last4: CHALLENGE_CARD.slice(-4),
  });
  expect(await stack.control.operations({ clientId: created.externalId })).toHaveLength(1);
  await page.close();
});
