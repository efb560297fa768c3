/**
 * The card payment workflow alone, on the time-skipping test server with a stubbed endpoint 3 and checkout record:
 * its deadlines over skipped time (checkout expiry, the authorization deadline, the review deadline); how a payment
 * in NEEDS_REVIEW is still settled (a late answer, the checkout's record of it, a signed callback naming the payment),
 * or not (another order's payment); what an unsigned hint can do (look now) and cannot (name the payment).
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { CardPaymentActivities, CardPaymentCheck } from '../../activities/card-payment-activities';
import type { RecordedAuthorization } from '../../src/card-payments/card-authorization-intent';
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
  /** What the checkout recorded of endpoint 2's answer (the intent). */
  recorded: RecordedAuthorization = { state: 'none' };
  recordReads = 0;
  /** Endpoint 3's answers to read when set: unreadable (the problem it names). */
  unreadable: string | undefined;

  set(paymentId: number, status: string, binding: Partial<Binding> = {}): void {
    const providerStatus = status === 'COMPLETED' ? 'PAID' : status === 'FAILED' ? 'DECLINED' : 'PENDING';
    this.payments.set(paymentId, { kind: 'found', status, providerStatus, brand: 'VISA', last4: '1111', netValueCents: 9_601, ...this.order, ...binding });
  }

  activities(): CardPaymentActivities & Pick<MerchantEventActivities, 'announceEvent'> {
    return {
      checkCardPayment: (paymentId) => Promise.resolve(this.unreadable ? { kind: 'unreadable', problem: this.unreadable } : (this.payments.get(paymentId) ?? { kind: 'not-found' })),
      findCardAuthorization: () => {
        this.recordReads += 1;
        return Promise.resolve(this.recorded);
      },
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
/** A signed callback's hint names the payment; an unsigned one (the callback router strips it) names none. */
const signedHint = (paymentId: number) => ({ paymentId, status: 'COMPLETED', receivedAt: new Date().toISOString() });
const unsignedHint = () => ({ status: 'UNVERIFIED', receivedAt: new Date().toISOString() });

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
    await handle.signal(cardCallbackSignal, signedHint(42));
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
    await handle.signal(cardCallbackSignal, signedHint(43));
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
    await handle.signal(cardCallbackSignal, signedHint(44));
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 44 });
});

test("another order's payment, another amount or other installments settle nothing, whoever names it; one endpoint 3 shows with only its status and amount does", async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(provider, async (handle) => {
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
      const rechecked = await handle.executeUpdate(recheckCardPaymentUpdate, { args: [{ providerPaymentId: paymentId }] });
      expect(rechecked).toMatchObject({ state: 'NEEDS_REVIEW', reviewReason: expect.stringMatching(reason) as unknown });
      expect(rechecked.providerPaymentId).toBeUndefined();
      await handle.signal(cardCallbackSignal, signedHint(paymentId));
      await pollUntil(
        async () => {
          const view = await handle.query(cardPaymentStatusQuery);
          return view.checksMade > rechecked.checksMade && view.providerPaymentId === undefined ? view : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 50, description: `the callback naming payment ${paymentId} to be checked` },
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

test("the checkout's signal lost, its record of endpoint 2's answer is read at the authorization deadline: PAID, no review", async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(provider, async (handle) => {
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
  const view = await withPayment(provider, async (handle) => {
    await authorize(handle);
    provider.recorded = { state: 'refused', reason: 'Card refused by the issuer: insufficient funds' };
    await env.sleep(3 * MINUTE);
  });
  expect(view).toMatchObject({ state: 'FAILED', failureReason: 'Card refused by the issuer: insufficient funds' });
});

test('an unsigned hint names no payment: before the card, while authorizing or in review it moves nothing; in review it has the checkout record read', async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(provider, async (handle) => {
    // Before the card step not even a signed callback's id is taken: no payment of this order can exist yet.
    provider.set(70, 'COMPLETED');
    await handle.signal(cardCallbackSignal, signedHint(70));
    await handle.signal(cardCallbackSignal, unsignedHint());
    await authorize(handle);
    await handle.signal(cardCallbackSignal, unsignedHint());
    await env.sleep(3 * MINUTE);
    expect((await reaches(handle, 'NEEDS_REVIEW')).providerPaymentId).toBeUndefined();
    // Read at the deadline, and again for the hints that waited: nothing recorded, nothing asked of endpoint 3.
    await pollUntil(() => (provider.recordReads >= 2 ? true : undefined), { timeoutMs: 20_000, intervalMs: 50, description: 'the record to be read twice' });
    expect((await handle.query(cardPaymentStatusQuery)).checksMade).toBe(0);
    // In review, an unsigned hint has the checkout's record read: the payment the checkout recorded settles it.
    provider.recorded = { state: 'accepted', paymentId: 71 };
    provider.set(71, 'COMPLETED');
    await handle.signal(cardCallbackSignal, unsignedHint());
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 71, callbacksReceived: 4 });
  expect(path(view)).toEqual(['AWAITING_CARD', 'AUTHORIZING', 'NEEDS_REVIEW', 'PENDING', 'PAID']);
});

test("a payment id the provider cannot find is dropped when a callback named it, kept when endpoint 2 answered it", async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(provider, async (handle) => {
    await authorize(handle);
    await handle.signal(cardCallbackSignal, signedHint(80));
    await pollUntil(
      async () => {
        const view = await handle.query(cardPaymentStatusQuery);
        return view.checksMade > 0 && view.providerPaymentId === undefined ? view : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 50, description: 'the unknown payment 80 to be dropped' },
    );
    // The answer's own payment, not found at first, is asked again until the provider shows it.
    await handle.signal(authorizationAnswerSignal, accepted(81));
    await pollUntil(
      async () => {
        const view = await handle.query(cardPaymentStatusQuery);
        return view.checksMade > 1 && view.reviewReason?.includes('payment 81 is not at the provider') ? view : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 50, description: 'payment 81 to be asked for' },
    );
    provider.set(81, 'COMPLETED');
    await env.sleep(MINUTE);
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 81 });
});

test("endpoint 3's answer without what settles the order: the payment shows the problem, then PAID once it is readable", async () => {
  const provider = new StubbedProvider();
  const view = await withPayment(provider, async (handle) => {
    provider.unreadable = 'GET /api/v1/card/payments/:id: response does not match the contract (data.amount: Invalid input)';
    await authorize(handle);
    await handle.signal(authorizationAnswerSignal, accepted(90));
    const stuck = await pollUntil(
      async () => {
        const view = await handle.query(cardPaymentStatusQuery);
        return view.problem ? view : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 50, description: 'the problem to be shown' },
    );
    expect(stuck).toMatchObject({ state: 'PENDING', problem: { activity: 'checkCardPayment', message: expect.stringContaining('data.amount') as unknown } });
    provider.unreadable = undefined;
    provider.set(90, 'COMPLETED');
    await env.sleep(MINUTE);
  });
  expect(view).toMatchObject({ state: 'PAID', providerPaymentId: 90 });
  expect(view.problem).toBeUndefined();
});
