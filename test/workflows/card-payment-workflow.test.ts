/**
 * The card payment workflow alone, on the time-skipping test server with a stubbed endpoint 3: its
 * deadlines over skipped time (checkout expiry, the authorization deadline, the review deadline) and how
 * a payment in NEEDS_REVIEW is still settled (a late answer, a callback naming the payment), or not
 * (a callback naming another order's payment).
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { CardPaymentActivities, CardPaymentCheck } from '../../activities/card-payment-activities';
import type { CardPaymentInput } from '../../src/card-payments/card-payment-input';
import { pollUntil } from '../../src/util/poll';
import {
  authorizationAnswerSignal,
  cardCallbackSignal,
  cardPaymentStatusQuery,
  cardPaymentWorkflowId,
  recheckCardPaymentUpdate,
  startAuthorizationUpdate,
  type CardPaymentView,
  type CardPaymentWorkflow,
  type CardPaymentState,
} from '../../workflows/card-payment/messages';
import type { MerchantEventActivities } from '../../activities/merchant-event-activities';
import type { Announcement } from '../../src/webhooks/announce';
import { startTimeSkipping, withWorker } from '../helpers/time-skipping';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
});
afterAll(() => env?.teardown());

/** What binds a payment at the provider to an order. */
interface Binding {
  externalReference?: string;
  amountCents: number;
  installmentCount?: number;
}

/** Endpoint 3 as the tests set it: what each payment id answers now. */
class StubbedProvider {
  readonly payments = new Map<number, CardPaymentCheck>();
  /** What the workflow announced to the merchant's endpoints. */
  readonly announced: Announcement[] = [];
  /** The order of the test's payment: a payment set without a binding of its own is that order's. */
  order: Binding = { amountCents: 10_000, installmentCount: 1 };

  set(paymentId: number, status: string, binding: Partial<Binding> = {}): void {
    const providerStatus = status === 'COMPLETED' ? 'PAID' : status === 'FAILED' ? 'DECLINED' : 'PENDING';
    this.payments.set(paymentId, { kind: 'found', status, providerStatus, brand: 'VISA', last4: '1111', netValueCents: 9_601, ...this.order, ...binding });
  }

  activities(): CardPaymentActivities & Pick<MerchantEventActivities, 'announceEvent'> {
    return {
      checkCardPayment: (paymentId) => Promise.resolve(this.payments.get(paymentId) ?? { kind: 'not-found' }),
      announceEvent: (announcement) => {
        this.announced.push(announcement);
        return Promise.resolve({});
      },
    };
  }
}

async function input(externalId: string): Promise<CardPaymentInput> {
  return {
    order: { externalId, amountCents: 10_000, installmentCount: 1, payer: { name: 'Ana Souza', email: 'ana@example.com', document: '52998224725', phone: '5511987654321' } },
    expiresAt: new Date((await env.currentTimeMs()) + 30 * MINUTE).toISOString(),
    requestHash: 'hash',
    timing: { callbackWaitMs: MINUTE, pollInitialMs: 5_000, pollMaxMs: 10 * MINUTE, reviewAfterMs: DAY, authorizeDeadlineMs: 2 * MINUTE },
  };
}

async function withPayment(provider: StubbedProvider, body: (handle: WorkflowHandle<CardPaymentWorkflow>, externalId: string) => Promise<void>): Promise<CardPaymentView> {
  const taskQueue = `card-${randomUUID()}`;
  const externalId = `order-${randomUUID().slice(0, 8)}`;
  provider.order = { externalReference: externalId, amountCents: 10_000, installmentCount: 1 };
  return withWorker(env, taskQueue, provider.activities(), async () => {
    const handle = await env.client.workflow.start<CardPaymentWorkflow>('cardPaymentWorkflow', { taskQueue, workflowId: cardPaymentWorkflowId(externalId), args: [await input(externalId)] });
    await body(handle, externalId);
    return handle.result();
  });
}

function reaches(handle: WorkflowHandle<CardPaymentWorkflow>, state: CardPaymentState): Promise<CardPaymentView> {
  return pollUntil(
    async () => {
      const view = await handle.query(cardPaymentStatusQuery);
      return view.state === state ? view : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 50, description: `the card payment to reach ${state}` },
  );
}

const path = (view: CardPaymentView) => view.transitions.map((transition) => transition.to);
const accepted = (paymentId: number) => ({ kind: 'accepted' as const, paymentId, brand: 'VISA', last4: '1111', providerStatus: 'PENDING', netValueCents: 9_601 });
const authorize = (handle: WorkflowHandle<CardPaymentWorkflow>) => handle.executeUpdate(startAuthorizationUpdate, { args: [{ brand: 'VISA', last4: '1111' }] });

test('nobody pays within the checkout lifetime: EXPIRED, announced to the merchant', async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(provider, () => Promise.resolve());
  expect(path(view)).toEqual(['AWAITING_CARD', 'EXPIRED']);
  expect(provider.announced).toEqual([
    {
      sourceId: cardPaymentWorkflowId(view.externalId),
      seq: 1,
      type: 'card_payment.expired',
      occurredAt: view.transitions[1]?.at,
      data: { object: 'card_payment', externalId: view.externalId, status: 'EXPIRED', amount: 100, installmentCount: 1 },
    },
  ]);
});

test('no word from the checkout after the card was submitted: NEEDS_REVIEW; the late answer settles it by the check', async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(provider, async (handle) => {
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
  const view = await withPayment(provider, async (handle) => {
    provider.set(42, 'PENDING');
    await authorize(handle);
    await handle.signal(authorizationAnswerSignal, accepted(42));
    await reaches(handle, 'PENDING');
    await env.sleep(DAY + MINUTE);
    await reaches(handle, 'NEEDS_REVIEW');
    provider.set(42, 'COMPLETED');
    await handle.signal(cardCallbackSignal, { paymentId: 42, status: 'COMPLETED', receivedAt: new Date().toISOString() });
  });
  expect(path(view)).toEqual(['AWAITING_CARD', 'AUTHORIZING', 'PENDING', 'NEEDS_REVIEW', 'PAID']);
  expect(view.checksMade).toBeGreaterThan(3);
  // Only the final state is announced, with the card as far as the engine keeps it.
  expect(provider.announced.map((announcement) => [announcement.type, announcement.data])).toEqual([
    ['card_payment.paid', { object: 'card_payment', externalId: view.externalId, status: 'PAID', amount: 100, installmentCount: 1, brand: 'VISA', last4: '1111', netValue: 96.01, providerPaymentId: 42 }],
  ]);
});

test("a callback naming another order's payment settles nothing: the payment stays in review", async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(provider, async (handle) => {
    await authorize(handle);
    provider.set(43, 'COMPLETED', { externalReference: 'someone-else' });
    await handle.signal(cardCallbackSignal, { paymentId: 43, status: 'COMPLETED', receivedAt: new Date().toISOString() });
    const review = await pollUntil(
      async () => {
        const view = await handle.query(cardPaymentStatusQuery);
        return view.reviewReason?.includes('another order') ? view : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 50, description: 'the foreign payment to be noticed' },
    );
    expect(review.state).not.toBe('PAID');
    expect(review.providerPaymentId).toBeUndefined();
    // The right payment, when it arrives, settles it.
    provider.set(44, 'COMPLETED');
    await handle.signal(cardCallbackSignal, { paymentId: 44, status: 'COMPLETED', receivedAt: new Date().toISOString() });
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 44 });
});

test('a payment without a reference, of another amount or in other installments settles nothing, whoever names it; the bound one does', async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(provider, async (handle) => {
    await authorize(handle);
    await env.sleep(3 * MINUTE);
    await reaches(handle, 'NEEDS_REVIEW');
    provider.set(45, 'COMPLETED', { externalReference: undefined });
    provider.set(46, 'COMPLETED', { amountCents: 100 });
    provider.set(47, 'COMPLETED', { installmentCount: 12 });
    provider.set(48, 'COMPLETED', { installmentCount: undefined });
    for (const [paymentId, reason] of [
      [45, /names no order/],
      [46, /is of 1, not the order's 100/],
      [47, /is in 12 installments, not the order's 1/],
      [48, /is in an unreported number of installments/],
    ] as const) {
      // An operator's recheck naming it, and a callback naming it: both refused.
      const rechecked = await handle.executeUpdate(recheckCardPaymentUpdate, { args: [{ providerPaymentId: paymentId }] });
      expect(rechecked).toMatchObject({ state: 'NEEDS_REVIEW', reviewReason: expect.stringMatching(reason) as unknown });
      expect(rechecked.providerPaymentId).toBeUndefined();
      await handle.signal(cardCallbackSignal, { paymentId, status: 'COMPLETED', receivedAt: new Date().toISOString() });
      await pollUntil(
        async () => {
          const view = await handle.query(cardPaymentStatusQuery);
          return view.checksMade > rechecked.checksMade && view.providerPaymentId === undefined ? view : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 50, description: `the callback naming payment ${paymentId} to be checked` },
      );
    }
    expect((await handle.query(cardPaymentStatusQuery)).state).toBe('NEEDS_REVIEW');
    provider.set(49, 'COMPLETED');
    await handle.signal(cardCallbackSignal, { paymentId: 49, status: 'COMPLETED', receivedAt: new Date().toISOString() });
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 49 });
  expect(path(view)).toEqual(['AWAITING_CARD', 'AUTHORIZING', 'NEEDS_REVIEW', 'PAID']);
});
