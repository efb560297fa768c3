/**
 * Which payment may settle a card order, the workflow alone on the time-skipping test server (./card-payment-stub.ts):
 * another order's payment, another amount or other installments settle nothing, whoever names it; an unsigned hint
 * names no payment; an id the provider cannot find is dropped unless endpoint 2 answered it; an endpoint-3 answer
 * without what settles the order is the payment's problem.
 */
import {
  authorizationAnswerSignal,
  cardCallbackSignal,
  cardPaymentStatusQuery,
  recheckCardPaymentUpdate,
} from '../../src/contracts/card-payment';
import { pollUntil } from '../../src/util/poll';
import {
  accepted,
  authorize,
  MINUTE,
  path,
  reaches,
  signedHint,
  StubbedProvider,
  unsignedHint,
  viewWhere,
  withPayment,
} from './card-payment-stub';
import { timeSkippingForThisFile } from '../helpers/time-skipping';

const env = timeSkippingForThisFile();

test("a callback naming another order's payment settles nothing: the payment stays in review", async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(env, provider, async (handle) => {
    await authorize(handle);
    provider.set(43, 'COMPLETED', { externalReference: 'someone-else' });
    await handle.signal(cardCallbackSignal, signedHint(43));
    const review = await viewWhere(
      handle,
      (view) => view.reviewReason?.includes('another order') === true,
      'the foreign payment to be noticed',
    );
    expect(review.state).not.toBe('PAID');
    expect(review.providerPaymentId).toBeUndefined();
    // The right payment, when it arrives, settles it.
    provider.set(44, 'COMPLETED');
    await handle.signal(cardCallbackSignal, signedHint(44));
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 44 });
});

test("another order's payment, another amount or other installments settle nothing, whoever names it; one endpoint 3 shows with only its status and amount does", async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(env, provider, async (handle) => {
    await authorize(handle);
    await env.sleep(3 * MINUTE);
    await reaches(handle, 'NEEDS_REVIEW');
    provider.set(45, 'COMPLETED', { externalReference: 'someone-else' });
    provider.set(46, 'COMPLETED', { amountCents: 100 });
    provider.set(47, 'COMPLETED', { installmentCount: 12 });
    for (const [paymentId, reason] of [
      [45, /belongs to another order/],
      [46, /is of 1, not the order's 100/],
      [47, /is in 12 installments, not the order's 1/],
    ] as const) {
      // An operator's recheck naming it, and a signed callback naming it: both refused.
      const rechecked = await handle.executeUpdate(recheckCardPaymentUpdate, {
        args: [{ providerPaymentId: paymentId }],
      });
      expect(rechecked).toMatchObject({
        state: 'NEEDS_REVIEW',
        reviewReason: expect.stringMatching(reason) as unknown,
      });
      expect(rechecked.providerPaymentId).toBeUndefined();
      await handle.signal(cardCallbackSignal, signedHint(paymentId));
      await viewWhere(
        handle,
        (view) => view.checksMade > rechecked.checksMade && view.providerPaymentId === undefined,
        `the callback naming payment ${paymentId} to be checked`,
      );
    }
    expect((await handle.query(cardPaymentStatusQuery)).state).toBe('NEEDS_REVIEW');
    // Endpoint 3's shape is not shown: a provider may show no reference and no installments.
    provider.set(49, 'COMPLETED', { externalReference: undefined, installmentCount: undefined });
    await handle.signal(cardCallbackSignal, signedHint(49));
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 49 });
  expect(path(view)).toEqual(['AWAITING_CARD', 'AUTHORIZING', 'NEEDS_REVIEW', 'PAID']);
});

test('an unsigned hint names no payment: before the card, while authorizing or in review it moves nothing; in review it has the checkout record read', async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(env, provider, async (handle) => {
    // Before the card step not even a signed callback's id is taken: no payment of this order can exist yet.
    provider.set(70, 'COMPLETED');
    await handle.signal(cardCallbackSignal, signedHint(70));
    await handle.signal(cardCallbackSignal, unsignedHint());
    await authorize(handle);
    await handle.signal(cardCallbackSignal, unsignedHint());
    await env.sleep(3 * MINUTE);
    expect((await reaches(handle, 'NEEDS_REVIEW')).providerPaymentId).toBeUndefined();
    // Read at the deadline, and again for the hints that waited: nothing recorded, nothing asked of endpoint 3.
    await pollUntil(() => (provider.recordReads >= 2 ? true : undefined), {
      timeoutMs: 20_000,
      intervalMs: 50,
      description: 'the record to be read twice',
    });
    expect((await handle.query(cardPaymentStatusQuery)).checksMade).toBe(0);
    // In review, an unsigned hint has the checkout's record read: the payment the checkout recorded settles it.
    provider.recorded = { state: 'accepted', paymentId: 71 };
    provider.set(71, 'COMPLETED');
    await handle.signal(cardCallbackSignal, unsignedHint());
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 71, callbacksReceived: 4 });
  expect(path(view)).toEqual(['AWAITING_CARD', 'AUTHORIZING', 'NEEDS_REVIEW', 'PENDING', 'PAID']);
});

test('a payment id the provider cannot find is dropped when a callback named it, kept when endpoint 2 answered it', async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(env, provider, async (handle) => {
    await authorize(handle);
    await handle.signal(cardCallbackSignal, signedHint(80));
    await viewWhere(
      handle,
      (view) => view.checksMade > 0 && view.providerPaymentId === undefined,
      'the unknown payment 80 to be dropped',
    );
    // The answer's own payment, not found at first, is asked again until the provider shows it.
    await handle.signal(authorizationAnswerSignal, accepted(81));
    await viewWhere(
      handle,
      (view) => view.checksMade > 1 && view.reviewReason?.includes('payment 81 is not at the provider') === true,
      'payment 81 to be asked for',
    );
    provider.set(81, 'COMPLETED');
    await env.sleep(MINUTE);
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 81 });
});

test("endpoint 3's answer without what settles the order: the payment shows the problem, then PAID once it is readable", async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(env, provider, async (handle) => {
    provider.unreadable =
      'GET /api/v1/card/payments/:id: response does not match the contract (data.amount: Invalid input)';
    await authorize(handle);
    await handle.signal(authorizationAnswerSignal, accepted(90));
    const stuck = await viewWhere(handle, (view) => view.problem !== undefined, 'the problem to be shown');
    expect(stuck).toMatchObject({
      state: 'PENDING',
      problem: { activity: 'checkCardPayment', message: expect.stringContaining('data.amount') as unknown },
    });
    provider.unreadable = undefined;
    provider.set(90, 'COMPLETED');
    await env.sleep(MINUTE);
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 90 });
  expect(view.problem).toBeUndefined();
});
