/**
 * The card payment workflow alone, on the time-skipping test server with a stubbed endpoint 3 and checkout record
 * (./card-payment-stub.ts): its deadlines over skipped time (checkout expiry, the authorization deadline, the review
 * deadline), and how a payment in NEEDS_REVIEW is still settled (a late answer, the checkout's record of it, a signed
 * callback naming the payment). Which payment may settle an order: ./card-payment-binding.test.ts.
 */
import { authorizationAnswerSignal, cardCallbackSignal, cardPaymentWorkflowId } from '../../src/contracts/card-payment';
import {
  accepted,
  authorize,
  DAY,
  MINUTE,
  path,
  reaches,
  signedHint,
  StubbedProvider,
  withPayment,
} from './card-payment-stub';
import { announcementOf } from '../helpers/announcements';
import { timeSkippingForThisFile } from '../helpers/time-skipping';

const env = timeSkippingForThisFile();

test('nobody pays within the checkout lifetime: EXPIRED, announced to the merchant', async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(env, provider, () => Promise.resolve());
  expect(path(view)).toEqual(['AWAITING_CARD', 'EXPIRED']);
  expect(provider.announced).toEqual([
    announcementOf('card_payment', cardPaymentWorkflowId(view.externalId), view, 1, 'card_payment.expired', {
      status: 'EXPIRED',
      amount: 100,
      installmentCount: 1,
    }),
  ]);
});

test('no word from the checkout after the card was submitted: NEEDS_REVIEW; the late answer settles it by the check', async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(env, provider, async (handle) => {
    await authorize(handle);
    await env.sleep(3 * MINUTE);
    expect((await reaches(handle, 'NEEDS_REVIEW')).reviewReason).toMatch(/card may have been charged/);
    provider.set(41, 'COMPLETED');
    await handle.signal(authorizationAnswerSignal, accepted(41));
  });
  expect(path(view)).toEqual(['AWAITING_CARD', 'AUTHORIZING', 'NEEDS_REVIEW', 'PENDING', 'PAID']);
  expect(view).toMatchObject({ providerPaymentId: 41, providerStatus: 'PAID', netValueCents: 9_601 });
});

test('a payment the provider leaves PENDING past the review deadline: NEEDS_REVIEW, then PAID by a callback', async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(env, provider, async (handle) => {
    provider.set(42, 'PENDING');
    await authorize(handle);
    await handle.signal(authorizationAnswerSignal, accepted(42));
    await reaches(handle, 'PENDING');
    await env.sleep(DAY + MINUTE);
    await reaches(handle, 'NEEDS_REVIEW');
    provider.set(42, 'COMPLETED');
    await handle.signal(cardCallbackSignal, signedHint(42));
  });
  expect(path(view)).toEqual(['AWAITING_CARD', 'AUTHORIZING', 'PENDING', 'NEEDS_REVIEW', 'PAID']);
  expect(view.checksMade).toBeGreaterThan(3);
  // The review (a person must look, and why) and the final state are announced, with the card as far as the engine keeps it.
  expect(provider.announced.map((announcement) => [announcement.type, announcement.data])).toEqual([
    [
      'card_payment.needs_review',
      expect.objectContaining({
        object: 'card_payment',
        status: 'NEEDS_REVIEW',
        reviewReason: expect.any(String) as unknown,
      }),
    ],
    [
      'card_payment.paid',
      {
        object: 'card_payment',
        externalId: view.externalId,
        status: 'PAID',
        amount: 100,
        installmentCount: 1,
        brand: 'VISA',
        last4: '1111',
        netValue: 96.01,
        providerPaymentId: 42,
      },
    ],
  ]);
});

test("the checkout's signal lost, its record of endpoint 2's answer is read at the authorization deadline: PAID, no review", async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(env, provider, async (handle) => {
    await authorize(handle);
    provider.recorded = { state: 'accepted', paymentId: 60 };
    provider.set(60, 'COMPLETED', { externalReference: undefined, installmentCount: undefined });
    await env.sleep(3 * MINUTE);
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 60, brand: 'VISA', last4: '1111' });
  expect(path(view)).toEqual(['AWAITING_CARD', 'AUTHORIZING', 'PENDING', 'PAID']);
});

test('a refusal recorded by the checkout, whose signal was lost: FAILED with the reason, at the deadline', async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(env, provider, async (handle) => {
    await authorize(handle);
    provider.recorded = { state: 'refused', reason: 'Card refused by the issuer: insufficient funds' };
    await env.sleep(3 * MINUTE);
  });
  expect(view).toMatchObject({ state: 'FAILED', failureReason: 'Card refused by the issuer: insufficient funds' });
});
