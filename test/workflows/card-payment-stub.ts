/**
 * The card payment workflow alone on the time-skipping test server, its activities stubbed: endpoint 3 as each test
 * sets it, the checkout's record of endpoint 2's answer, the merchant events it announces.
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { CardPaymentActivities, CardPaymentCheck } from '../../activities/card-payment-activities';
import type { MerchantEventActivities } from '../../activities/merchant-event-activities';
import type { RecordedAuthorization } from '../../src/card-payments/card-authorization-intent';
import type { CardPaymentInput } from '../../src/card-payments/card-payment-input';
import { pollUntil } from '../../src/util/poll';
import type { Announcement } from '../../src/merchant-events/announce';
import {
  cardPaymentStatusQuery,
  cardPaymentWorkflowId,
  startAuthorizationUpdate,
  type CardPaymentState,
  type CardPaymentView,
  type CardPaymentWorkflow,
} from '../../src/contracts/card-payment';
import { withWorker } from '../helpers/time-skipping';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

/** What binds a payment at the provider to an order. */
interface Binding {
  externalReference?: string;
  amountCents: number;
  installmentCount?: number;
}

/** Endpoint 3 as the tests set it: what each payment id answers now. */
export class StubbedProvider {
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
    this.payments.set(paymentId, {
      kind: 'found',
      status,
      providerStatus,
      brand: 'VISA',
      last4: '1111',
      netValueCents: 9_601,
      ...this.order,
      ...binding,
    });
  }

  activities(): CardPaymentActivities & Pick<MerchantEventActivities, 'announceEvent'> {
    return {
      checkCardPayment: (paymentId) =>
        Promise.resolve(
          this.unreadable
            ? { kind: 'unreadable', problem: this.unreadable }
            : (this.payments.get(paymentId) ?? { kind: 'not-found' }),
        ),
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

async function input(env: TestWorkflowEnvironment, externalId: string): Promise<CardPaymentInput> {
  return {
    order: {
      externalId,
      amountCents: 10_000,
      installmentCount: 1,
      payer: { name: 'Ana Souza', email: 'ana@example.com', document: '52998224725', phone: '5511987654321' },
    },
    expiresAt: new Date((await env.currentTimeMs()) + 30 * MINUTE).toISOString(),
    requestHash: 'hash',
    timing: {
      callbackWaitMs: MINUTE,
      pollInitialMs: 5_000,
      pollMaxMs: 10 * MINUTE,
      reviewAfterMs: DAY,
      authorizeDeadlineMs: 2 * MINUTE,
    },
  };
}

/** A card payment of R$ 100 in one installment, run by a worker of its own while `body` drives it; its final view. */
export async function withPayment(
  env: TestWorkflowEnvironment,
  provider: StubbedProvider,
  body: (handle: WorkflowHandle<CardPaymentWorkflow>, externalId: string) => Promise<void>,
): Promise<CardPaymentView> {
  const taskQueue = `card-${randomUUID()}`;
  const externalId = `order-${randomUUID().slice(0, 8)}`;
  provider.order = { externalReference: externalId, amountCents: 10_000, installmentCount: 1 };
  return withWorker(env, taskQueue, provider.activities(), async () => {
    const handle = await env.client.workflow.start<CardPaymentWorkflow>('cardPaymentWorkflow', {
      taskQueue,
      workflowId: cardPaymentWorkflowId(externalId),
      args: [await input(env, externalId)],
    });
    await body(handle, externalId);
    return handle.result();
  });
}

/** Until the payment's view satisfies `done` (described for the timeout's message). */
export function viewWhere(
  handle: WorkflowHandle<CardPaymentWorkflow>,
  done: (view: CardPaymentView) => boolean,
  description: string,
): Promise<CardPaymentView> {
  return pollUntil(
    async () => {
      const view = await handle.query(cardPaymentStatusQuery);
      return done(view) ? view : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 50, description },
  );
}

export const reaches = (handle: WorkflowHandle<CardPaymentWorkflow>, state: CardPaymentState) =>
  viewWhere(handle, (view) => view.state === state, `the card payment to reach ${state}`);
export const path = (view: CardPaymentView) => view.transitions.map((transition) => transition.to);
export const accepted = (paymentId: number) => ({
  kind: 'accepted' as const,
  paymentId,
  brand: 'VISA',
  last4: '1111',
  providerStatus: 'PENDING',
  netValueCents: 9_601,
});
export const authorize = (handle: WorkflowHandle<CardPaymentWorkflow>) =>
  handle.executeUpdate(startAuthorizationUpdate, { args: [{ brand: 'VISA', last4: '1111' }] });
/** A signed callback's hint names the payment; an unsigned one (the callback router strips it) names none. */
export const signedHint = (paymentId: number) => ({
  paymentId,
  status: 'COMPLETED',
  receivedAt: new Date().toISOString(),
});
export const unsignedHint = () => ({ status: 'UNVERIFIED', receivedAt: new Date().toISOString() });
