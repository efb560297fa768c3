/**
 * Every update the API sends (payout recheck and cancel, the card payment's checkout pay and fail and its
 * recheck and close, a charge's create, an infraction's defense, a batch's cancel, pause and resume), sent
 * twice at once in each state its workflow can be in here, through the real stack: each answer is the
 * view or a 4xx naming its rule, never a 5xx. One test reproduces the recheck that answered 500.
 */
import { randomUUID } from 'node:crypto';
import type { CardPaymentCreated } from '../../src/api/card-payments/schemas';
import { paymentApiClient } from '../../src/engine/payment-api-client';
import { pollUntil } from '../../src/util/poll';
import { authorizationAnswerSignal, cardPaymentWorkflowId } from '../../src/contracts/card-payment';
import {
  checkoutToken,
  createCardPayment,
  EXPIRY_YEAR,
  PAYER,
  startAuthorization,
  TEST_CVV,
} from '../card-payments/card-checkout';
import { startEngineHarness, type HttpAnswer } from '../helpers/engine-harness';
import { forThisFile } from '../helpers/for-this-file';
import { forceOutcome } from '../helpers/charges';
import { newExternalId } from '../helpers/payouts';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';
import { payoutWorkflowId } from '../../src/contracts/payout';

const DAY_MS = 86_400_000;
/** The sandbox's clock runs this far behind the machine's while an infraction is opened "days ago". */
let sandboxLagMs = 0;

const stack = forThisFile(() =>
  startEngineHarness(
    {
      SANDBOX_SETTLE_MS: '2500',
      CARD_CHECKOUT_TTL_MS: '4000',
      CARD_AUTHORIZE_DEADLINE_MS: '4000',
      SANDBOX_INFRACTION_RESOLVE_MS: '0',
    },
    { sandboxNow: () => Date.now() - sandboxLagMs },
  ),
);
afterEach(() => stack.admin('DELETE', '/sandbox/faults'));

interface Sent {
  operation: string;
  answer: HttpAnswer<{ code?: string; status?: string }>;
}

/** Sends every request twice at once; each answer must be defined: 2xx, or a 4xx with its rule's code. */
async function twiceAtOnce(
  requests: Record<string, () => Promise<HttpAnswer<Record<string, unknown>>>>,
): Promise<Sent[]> {
  const sent = await Promise.all(
    Object.entries(requests).flatMap(([operation, send]) =>
      [send(), send()].map(async (answer) => ({ operation, answer: await answer })),
    ),
  );
  for (const { operation, answer } of sent) {
    expect([operation, answer.status < 500]).toEqual([operation, true]);
    if (answer.status >= 400) expect([operation, typeof answer.body.code]).toEqual([operation, 'string']);
  }
  return sent;
}

const statusOf = async (path: string): Promise<string | undefined> =>
  (await stack.api<{ status?: string }>('GET', path)).body.status;

function reaches(path: string, statuses: string[], timeoutMs = 30_000): Promise<string> {
  return pollUntil(
    async () => {
      const status = await statusOf(path);
      return status && statuses.includes(status) ? status : undefined;
    },
    { timeoutMs, intervalMs: 150, description: `${path} to reach ${statuses.join('|')}` },
  );
}

describe('payouts: recheck and cancel', () => {
  const submit = (externalId: string, amount: number) =>
    stack.api('POST', '/v1/payouts', { externalId, amount, pixKey: '52998224725', keyType: 'CPF' });
  const updates = (externalId: string) => ({
    recheck: () => stack.api('POST', `/v1/payouts/${externalId}/recheck`),
    cancel: () => stack.api('POST', `/v1/payouts/${externalId}/cancel`, { reason: 'test' }),
  });

  test('a recheck of a payout still RECEIVED (every call to the provider timing out) answers its view at once, not 500', async () => {
    const externalId = newExternalId('slow-provider');
    // Slower than PAYMENT_API_TIMEOUT_MS (2 s here): the submission times out, and every look-up after it too.
    await stack.admin('PUT', '/sandbox/faults', { latencyMs: 3000 });
    // The provider makes the withdrawal after the engine gave up on its answer: the engine, never sending it again, finds it.
    expect((await submit(externalId, 12)).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const recheck = await stack.api<{ status?: string }>('POST', `/v1/payouts/${externalId}/recheck`);
    // 202: taken; the workflow looks once its submission lets it.
    expect([recheck.status, recheck.body.status]).toEqual([202, 'RECEIVED']);
    await stack.admin('DELETE', '/sandbox/faults');
    await reaches(`/v1/payouts/${externalId}`, ['COMPLETED']);
    const after = await stack.api<{ status?: string }>('POST', `/v1/payouts/${externalId}/recheck`);
    expect([after.status, after.body.status]).toEqual([200, 'COMPLETED']);
  });

  test('in RECEIVED, NEEDS_REVIEW, CANCELLED, SUBMITTED, COMPLETED and FAILED', async () => {
    // RECEIVED while the provider answers 503 to everything; the cancel then cannot confirm there is no record: NEEDS_REVIEW.
    const stuck = newExternalId('received');
    await stack.admin('PUT', '/sandbox/faults', { errorRate: 1 });
    expect((await submit(stuck, 10)).status).toBe(202);
    expect(await statusOf(`/v1/payouts/${stuck}`)).toBe('RECEIVED');
    const received = await twiceAtOnce(updates(stuck));
    // A recheck while it is being submitted is taken (202) with its view at once (NEEDS_REVIEW, asked then, once a concurrent cancel got there first).
    for (const sent of received.filter(({ operation }) => operation === 'recheck')) {
      expect([200, 202]).toContain(sent.answer.status);
      expect(sent.answer.body.status).toMatch(/^(RECEIVED|NEEDS_REVIEW)$/);
    }
    await stack.admin('DELETE', '/sandbox/faults');

    await reaches(`/v1/payouts/${stuck}`, ['NEEDS_REVIEW']);
    await twiceAtOnce(updates(stuck));
    // Recheck and cancel in review: the provider, healthy again, has no record, so the cancel holds.
    expect(await reaches(`/v1/payouts/${stuck}`, ['CANCELLED'])).toBe('CANCELLED');
    await twiceAtOnce(updates(stuck));
    // Its history holds the server's plaintext marker of the submission it cancelled before a retry started.
    await recordHistory(
      stack.temporal.client,
      payoutWorkflowId(stuck),
      currentPayoutHistory('cancelled-in-retry-backoff'),
    );

    const processing = newExternalId('submitted');
    const completed = newExternalId('completed');
    const failed = newExternalId('failed');
    // Amounts ending in .14 stay PROCESSING at the sandbox, .13 fail, others complete.
    await Promise.all([submit(processing, 10.14), submit(completed, 10), submit(failed, 10.13)]);
    await reaches(`/v1/payouts/${processing}`, ['SUBMITTED']);
    const submitted = await twiceAtOnce(updates(processing));
    expect(submitted.filter((sent) => sent.operation === 'cancel').map((sent) => sent.answer.body.code)).toEqual([
      'PAYOUT_NOT_CANCELLABLE',
      'PAYOUT_NOT_CANCELLABLE',
    ]);
    await reaches(`/v1/payouts/${completed}`, ['COMPLETED']);
    await twiceAtOnce(updates(completed));
    await reaches(`/v1/payouts/${failed}`, ['FAILED']);
    await twiceAtOnce(updates(failed));
  });
});

describe('batches: cancel, pause and resume', () => {
  const items = (label: string, amount: number, count: number) =>
    Array.from({ length: count }, (_, index) => ({
      externalId: newExternalId(`${label}-${index}`),
      amount,
      pixKey: '52998224725',
      keyType: 'CPF',
    }));
  const submitBatch = async (label: string, amount: number) => {
    const batchId = newExternalId(label);
    expect((await stack.api('POST', '/v1/payout-batches', { batchId, items: items(label, amount, 2) })).status).toBe(
      202,
    );
    return batchId;
  };
  const controls = (batchId: string) =>
    Object.fromEntries(
      ['cancel', 'pause', 'resume'].map((action) => [
        action,
        () => stack.api('POST', `/v1/payout-batches/${batchId}/${action}`),
      ]),
    );
  const batch = (batchId: string) =>
    stack.api<{ control: string; done: boolean; finishedAt?: string }>('GET', `/v1/payout-batches/${batchId}`);

  test('RUNNING, PAUSED, CANCELLED and done', async () => {
    // Items that stay PROCESSING keep their batch running.
    const running = await submitBatch('batch-running', 10.14);
    expect((await batch(running)).body).toMatchObject({ control: 'RUNNING', done: false });
    await twiceAtOnce(controls(running));

    const paused = await submitBatch('batch-paused', 10.14);
    expect((await stack.api('POST', `/v1/payout-batches/${paused}/pause`)).status).toBe(200);
    expect((await batch(paused)).body.control).toBe('PAUSED');
    await twiceAtOnce(controls(paused));

    const cancelled = await submitBatch('batch-cancelled', 10.14);
    expect((await stack.api('POST', `/v1/payout-batches/${cancelled}/cancel`)).status).toBe(200);
    await twiceAtOnce(controls(cancelled));

    const done = await submitBatch('batch-done', 10);
    await pollUntil(async () => ((await batch(done)).body.finishedAt ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 200,
      description: 'the batch to finish',
    });
    const finished = await twiceAtOnce(controls(done));
    expect(new Set(finished.map((sent) => sent.answer.body.code))).toEqual(new Set(['BATCH_FINISHED']));
  });
});

describe('card payments: checkout pay and fail, recheck and close', () => {
  const create = async (label: string): Promise<CardPaymentCreated> => {
    const answer = await stack.api<CardPaymentCreated>('POST', '/v1/card-payments', {
      externalId: newExternalId(label),
      amount: 100.1,
      installmentCount: 1,
      payer: PAYER,
    });
    expect(answer.status).toBe(201);
    return answer.body;
  };
  const card = {
    holderName: 'ANA SOUZA',
    number: '4111111111111111',
    expiryMonth: '12',
    expiryYear: EXPIRY_YEAR,
    cvv: TEST_CVV,
  };
  const operations = (created: CardPaymentCreated) => {
    const { externalId } = created;
    const token = checkoutToken(created);
    const threeDS = { cavv: 'AAABBBCCC', eci: '05', version: '2.2.0' };
    return {
      // Not a token of the security module: the provider refuses it, so the payment FAILs.
      pay: () =>
        stack.api('POST', `/checkout/${externalId}/pay`, {
          token,
          card,
          cardToken: 'not-a-real-token',
          sessionId: 'sess-unknown',
          threeDS,
        }),
      fail: () => stack.api('POST', `/checkout/${externalId}/fail`, { token, code: 'THREE_DS_DENIED' }),
      recheck: () => stack.api('POST', `/v1/card-payments/${externalId}/recheck`, {}),
      close: () => stack.api('POST', `/v1/card-payments/${externalId}/close`, { reason: 'no charge at the provider' }),
    };
  };
  const path = (externalId: string) => `/v1/card-payments/${externalId}`;

  test('AWAITING_CARD, FAILED, AUTHORIZING, NEEDS_REVIEW, PENDING, PAID and EXPIRED', async () => {
    const awaiting = await create('card-awaiting');
    expect(await statusOf(path(awaiting.externalId))).toBe('AWAITING_CARD');
    await twiceAtOnce(operations(awaiting));
    await reaches(path(awaiting.externalId), ['FAILED']);
    await twiceAtOnce(operations(awaiting));

    // The API took the card and then "crashed": AUTHORIZING until the deadline, then NEEDS_REVIEW.
    const authorizing = await create('card-authorizing');
    await startAuthorization(stack, authorizing.externalId);
    expect(await statusOf(path(authorizing.externalId))).toBe('AUTHORIZING');
    await twiceAtOnce(operations(authorizing));
    const inReview = await create('card-review');
    await startAuthorization(stack, inReview.externalId);
    await reaches(path(inReview.externalId), ['NEEDS_REVIEW']);
    await twiceAtOnce(operations(inReview));

    // Accepted by the provider, settling after SANDBOX_SETTLE_MS: PENDING, then PAID.
    const pending = await create('card-pending');
    await startAuthorization(stack, pending.externalId);
    const { data } = await paymentApiClient(stack.config).createCardPayment({
      amount: 100.1,
      installmentCount: 1,
      dueDate: new Date().toISOString().slice(0, 10),
      externalReference: pending.externalId,
      payer: { ...PAYER, document: '52998224725', phone: '+5511987654321' },
      creditCard: {
        holderName: card.holderName,
        number: card.number,
        expiryMonth: card.expiryMonth,
        expiryYear: card.expiryYear,
        ccv: card.cvv,
      },
    });
    await stack.temporal.client.workflow
      .getHandle(cardPaymentWorkflowId(pending.externalId))
      .signal(authorizationAnswerSignal, {
        kind: 'accepted',
        paymentId: data.id,
        brand: data.brand,
        last4: data.last4,
        providerStatus: data.status,
        netValueCents: 9600,
      });
    await reaches(path(pending.externalId), ['PENDING']);
    await twiceAtOnce(operations(pending));
    await reaches(path(pending.externalId), ['PAID']);
    await twiceAtOnce(operations(pending));

    const expired = await create('card-expired');
    await reaches(path(expired.externalId), ['EXPIRED'], 20_000);
    await twiceAtOnce(operations(expired));
  });
});

describe('charges: create (update-with-start) again, same body and another', () => {
  const body = (externalId: string, amount: number, expiresInSeconds = 900) => ({
    externalId,
    amount,
    payer: { name: 'Ana Souza', document: '529.982.247-25' },
    expiresInSeconds,
  });
  const operations = (externalId: string, amount: number, expiresInSeconds?: number) => ({
    same: () => stack.api('POST', '/v1/charges', body(externalId, amount, expiresInSeconds)),
    other: () => stack.api('POST', '/v1/charges', body(externalId, amount + 1, expiresInSeconds)),
  });
  const path = (externalId: string) => `/v1/charges/${externalId}`;
  const create = async (label: string, amount: number, expiresInSeconds?: number) => {
    const externalId = newExternalId(label);
    expect((await stack.api('POST', '/v1/charges', body(externalId, amount, expiresInSeconds))).status).toBe(201);
    return externalId;
  };

  test('PENDING, PAID, REFUNDED, FAILED and EXPIRED', async () => {
    const pending = await create('charge-pending', 30);
    expect(await statusOf(path(pending))).toBe('PENDING');
    const again = await twiceAtOnce(operations(pending, 30));
    expect(again.map((sent) => [sent.operation, sent.answer.status])).toEqual([
      ['same', 201],
      ['same', 201],
      ['other', 409],
      ['other', 409],
    ]);

    expect((await stack.admin('POST', `/sandbox/cash-ins/${pending}/pay`, {})).status).toBe(200);
    await reaches(path(pending), ['PAID']);
    await twiceAtOnce(operations(pending, 30));

    // An accepted MED claim for the whole amount refunds it, and its workflow closes.
    const { providerTransactionId } = (await stack.api<{ providerTransactionId: string }>('GET', path(pending))).body;
    const opened = await stack.admin<{ infraction: { id: string } }>('POST', '/sandbox/infractions', {
      transactionId: providerTransactionId,
      reason: 'fraud',
    });
    await stack.admin('POST', `/sandbox/infractions/${opened.body.infraction.id}/resolve`, { status: 'ACCEPTED' });
    await stack.api('POST', '/v1/infractions/sync');
    await reaches(path(pending), ['REFUNDED']);
    await twiceAtOnce(operations(pending, 30));

    const failed = await create('charge-failed', 31);
    expect(await forceOutcome(stack, failed, { status: 'FAILED', reason: 'test' })).toBe(200);
    await reaches(path(failed), ['FAILED']);
    await twiceAtOnce(operations(failed, 31));

    const expired = await create('charge-expired', 32, 1);
    await reaches(path(expired), ['EXPIRED']);
    await twiceAtOnce(operations(expired, 32, 1));
  });
});

describe('infractions: defense, the same and another', () => {
  const defense = (analise: string) => ({
    analise,
    justificativa: 'the buyer received the goods',
    proofs: ['https://merchant.example.com/proof.pdf'],
  });
  const operations = (id: string) => ({
    same: () => stack.api('POST', `/v1/infractions/${id}/defense`, defense('NEGADA')),
    other: () => stack.api('POST', `/v1/infractions/${id}/defense`, defense('ACEITA')),
  });
  const path = (id: string) => `/v1/infractions/${id}`;

  /** An infraction on a fresh paid cash-in, opened `ageMs` ago by the provider's clock (its deadline is 7 days after). */
  async function openInfraction(ageMs = 0, lagAfterMs = 0): Promise<string> {
    const api = paymentApiClient(stack.config);
    const transactionId = `ci-${randomUUID().slice(0, 8)}`;
    await api.createPixCashIn({
      amount: 20,
      payerName: 'Ana Souza',
      payerDocument: '52998224725',
      transactionId,
      projectWebhook: 'http://127.0.0.1:9/hook',
    });
    expect((await stack.admin('POST', `/sandbox/cash-ins/${transactionId}/pay`, {})).status).toBe(200);
    sandboxLagMs = ageMs;
    try {
      const opened = await stack.admin<{ infraction: { id: string } }>('POST', '/sandbox/infractions', {
        transactionId,
        reason: 'fraud',
      });
      expect(opened.status).toBe(200);
      return opened.body.infraction.id;
    } finally {
      sandboxLagMs = lagAfterMs;
    }
  }

  test('OPEN, DEFENSE_SUBMITTED, DUE_SOON, DEADLINE_MISSED, ACCEPTED, REJECTED and CANCELLED', async () => {
    const [open, dueSoon, accepted, rejected, cancelled] = [
      await openInfraction(),
      await openInfraction(6.5 * DAY_MS),
      await openInfraction(),
      await openInfraction(),
      await openInfraction(),
    ];
    // Due in 5 s; the provider, whose clock now runs two minutes behind, resolves it only later: DEADLINE_MISSED meanwhile.
    const missed = await openInfraction(7 * DAY_MS - 5_000, 120_000);
    for (const [id, status] of [
      [accepted, 'ACCEPTED'],
      [rejected, 'REJECTED'],
      [cancelled, 'CANCELLED'],
    ] as const) {
      await stack.admin('POST', `/sandbox/infractions/${id}/resolve`, { status });
    }
    expect((await stack.api('POST', '/v1/infractions/sync')).status).toBe(202);

    await reaches(path(open), ['OPEN']);
    const first = await twiceAtOnce(operations(open));
    // One defense goes to the provider: the same one again joins it, a different one is refused. Sent at
    // once, either may be taken first: one kind is answered 200 twice, the other 409 twice.
    const statuses = (operation: string) =>
      first.filter((sent) => sent.operation === operation).map((sent) => sent.answer.status);
    expect([
      [200, 200, 409, 409],
      [409, 409, 200, 200],
    ]).toContainEqual([...statuses('same'), ...statuses('other')]);
    await reaches(path(open), ['DEFENSE_SUBMITTED']);
    await twiceAtOnce(operations(open));

    for (const [id, status] of [
      [dueSoon, 'DUE_SOON'],
      [missed, 'DEADLINE_MISSED'],
      [accepted, 'ACCEPTED'],
      [rejected, 'REJECTED'],
      [cancelled, 'CANCELLED'],
    ] as const) {
      await reaches(path(id), [status]);
      await twiceAtOnce(operations(id));
    }
    sandboxLagMs = 0;
  });
});

describe('no worker answers', () => {
  test('every update past the call deadline answers 503 with Retry-After, never 500 (a payout recheck: 202, taken by signal)', async () => {
    const payout = newExternalId('no-worker');
    expect(
      (
        await stack.api('POST', '/v1/payouts', {
          externalId: payout,
          amount: 10.14,
          pixKey: '52998224725',
          keyType: 'CPF',
        })
      ).status,
    ).toBe(202);
    await reaches(`/v1/payouts/${payout}`, ['SUBMITTED']);
    const card = await createCardPayment(stack, 'no-worker', { amount: 20 });
    const token = checkoutToken(card);
    await stack.stopWorker();
    try {
      // A recheck is taken all the same (a durable signal), answered 202 with what the index shows: the workflow looks once a worker runs it.
      const recheck = await stack.api<{ status?: string; source?: string }>('POST', `/v1/payouts/${payout}/recheck`);
      expect([recheck.status, recheck.body.status, recheck.body.source]).toEqual([202, 'SUBMITTED', 'index']);
      const answers = await Promise.all([
        stack.api('POST', `/v1/payouts/${payout}/cancel`, { reason: 'test' }),
        stack.api('POST', `/v1/card-payments/${card.externalId}/recheck`, {}),
        stack.api('POST', `/v1/card-payments/${card.externalId}/close`, { reason: 'test' }),
        stack.api('POST', `/checkout/${card.externalId}/fail`, { token, code: 'THREE_DS_DENIED' }),
        stack.api('POST', '/v1/charges', {
          externalId: newExternalId('no-worker'),
          amount: 15,
          payer: { name: 'Ana Souza', document: '529.982.247-25' },
        }),
      ]);
      for (const answer of answers) {
        expect([answer.status, answer.headers.get('retry-after')]).toEqual([503, expect.stringMatching(/^\d+$/)]);
      }
    } finally {
      await stack.startWorker();
    }
  });
});
