/**
 * Every rail through the real stack (engine API → workflow → sandbox over HTTP → signed callbacks):
 * PIX copy-and-paste, internal transfer and crypto, each completing, failing with the provider's
 * reason, surviving lost and duplicated callbacks, and refusing what cannot be paid before anything starts.
 * The sandbox does not de-duplicate: its operations per external_id are the ones the engine made.
 */
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { SANDBOX_SERVES_CRYPTO, startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { duplicateCallbackAnswered, newExternalId, providerDebits, storeCode, waitForPayout } from '../helpers/payouts';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';
import { payoutWorkflowId } from '../../src/contracts/payout';

const TRON_WALLET = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness({ SANDBOX_DEDUPLICATE: 'false' });
});
afterEach(() => stack.admin('DELETE', '/sandbox/faults'));
afterAll(() => stack?.close());

const pay = (body: Record<string, unknown>) => stack.api('POST', '/v1/payouts', body);
const waitFor = (id: string, statuses: string[]) => waitForPayout(stack, id, statuses);

async function operations(externalId: string): Promise<unknown[]> {
  const answer = await stack.admin<{ operations: unknown[] }>(
    'GET',
    `/sandbox/operations?externalId=${encodeURIComponent(externalId)}`,
  );
  return answer.body.operations;
}

/** Once the duplicate callback has arrived too (not merely the first): what it changed, if anything. */
async function afterDuplicateCallback(id: string): Promise<PayoutResponse> {
  await duplicateCallbackAnswered(stack, id);
  const payout = (await stack.api<PayoutResponse>('GET', `/v1/payouts/${id}`)).body;
  expect([1, 2]).toContain(payout.callbacksReceived);
  expect(payout.status).toBe('COMPLETED');
  expect(payout.transitions.map((t) => t.to)).toEqual(['RECEIVED', 'SUBMITTED', 'COMPLETED']);
  expect(await operations(id)).toHaveLength(1);
  expect(await providerDebits(stack, id)).toBe(1);
  return payout;
}

describe('PIX copy-and-paste', () => {
  test('a code with its amount is paid: COMPLETED by callback, with the fee charged at request time', async () => {
    const id = newExternalId('emv');
    expect((await pay({ externalId: id, method: 'pix_copy_paste', emv: storeCode(1990) })).status).toBe(202);
    const done = await waitFor(id, ['COMPLETED']);
    expect(done).toMatchObject({ method: 'pix_copy_paste', amount: 19.9, fee: 1.1, total: 21 });
    expect(await providerDebits(stack, id)).toBe(1);
    await recordHistory(stack.temporal.client, payoutWorkflowId(id), currentPayoutHistory('copy-paste-completed'));
  });

  test('a code without an amount is paid the amount given; the provider failing it ends FAILED with its reason', async () => {
    const id = newExternalId('emv-fail');
    await pay({ externalId: id, method: 'pix_copy_paste', emv: storeCode(), amount: 10.13 });
    const failed = await waitFor(id, ['FAILED']);
    // The reason comes in the signed callback; an unsigned one (seed profile) is a bare hint, and the check shows no reason.
    expect(failed.failureReason).toBe(
      process.env.SANDBOX_PROFILE === 'seed'
        ? 'provider reported FALHA'
        : 'Recipient account closed (sandbox rule: amount ending in .13)',
    );
    expect(failed.amount).toBe(10.13);
  });

  test('with its callback dropped it completes by polling; duplicated callbacks change nothing', async () => {
    await stack.admin('PUT', '/sandbox/faults', { callbacks: { drop: { count: 1 } } });
    const dropped = newExternalId('emv-drop');
    await pay({ externalId: dropped, method: 'pix_copy_paste', emv: storeCode(500) });
    expect((await waitFor(dropped, ['COMPLETED'])).callbacksReceived).toBe(0);

    await stack.admin('PUT', '/sandbox/faults', { callbacks: { duplicate: { share: 1 } } });
    const duplicated = newExternalId('emv-dup');
    await pay({ externalId: duplicated, method: 'pix_copy_paste', emv: storeCode(600) });
    await waitFor(duplicated, ['COMPLETED']);
    await afterDuplicateCallback(duplicated);
  });

  test('a bad CRC, a different amount, or no amount anywhere is a 422 naming the problem, and nothing starts', async () => {
    const good = storeCode(1990);
    const cases = [
      { body: { emv: `${good.slice(0, -4)}0000` }, path: 'emv', message: /CRC/ },
      { body: { emv: good, amount: 20 }, path: 'amount', message: /must equal the code's amount 19.9/ },
      { body: { emv: storeCode() }, path: 'amount', message: /required: the code carries no amount/ },
    ];
    for (const { body, path, message } of cases) {
      const id = newExternalId('emv-bad');
      const answer = await pay({ externalId: id, method: 'pix_copy_paste', ...body });
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({
        code: 'PAYOUT_NOT_PAYABLE',
        issues: [{ path, message: expect.stringMatching(message) }],
      });
      expect((await stack.api('GET', `/v1/payouts/${id}`)).status).toBe(404);
    }
  });

  test('POST /v1/payouts/preview reads a code without paying it: payee, amount, txid and the fee', async () => {
    const answer = await stack.api('POST', '/v1/payouts/preview', { emv: storeCode(2500) });
    expect(answer.status).toBe(200);
    // A code with an amount is for one payment (point of initiation 12).
    expect(answer.body).toEqual({
      payee: { name: 'Loja Exemplo', city: 'SAO PAULO', pixKey: 'loja@example.com' },
      amount: 25,
      txid: 'PEDIDO42',
      reusable: false,
      fee: 1.25,
      total: 26.25,
    });
    expect((await stack.api('POST', '/v1/payouts/preview', { emv: 'not a code' })).status).toBe(422);
  });
});

describe('internal transfer', () => {
  test('a transfer to a user of the provider completes, confirmed by the check under the id the provider answered', async () => {
    const id = newExternalId('int');
    await pay({
      externalId: id,
      method: 'internal',
      email: 'Recipient@Sandbox.test',
      amount: 12.5,
      description: 'rent',
    });
    const done = await waitFor(id, ['COMPLETED']);
    expect(done).toMatchObject({ method: 'internal', amount: 12.5, fee: 0, total: 12.5 });
    expect(done.providerTransactionId).toBeTruthy();
    await recordHistory(stack.temporal.client, payoutWorkflowId(id), currentPayoutHistory('internal-completed'));
  });

  test('a transfer to an unknown e-mail is refused by the provider: FAILED with its reason', async () => {
    const id = newExternalId('int-unknown');
    await pay({ externalId: id, method: 'internal', email: 'nobody@example.com', amount: 5 });
    const failed = await waitFor(id, ['FAILED']);
    expect(failed.failureReason).toBe('email does not belong to a user of this environment');
  });

  test('an answer lost after the provider committed goes to NEEDS_REVIEW, never a second post: exactly one debit', async () => {
    await stack.admin('PUT', '/sandbox/faults', { timeoutAfterCommit: { count: 1, mode: 'reset' } });
    const id = newExternalId('int-amb');
    const before = (
      await stack.admin<{ balances: { account: string; balanceCents: number }[] }>('GET', '/sandbox/balances')
    ).body;
    await pay({ externalId: id, method: 'internal', email: 'recipient@sandbox.test', amount: 7.77 });
    const review = await waitFor(id, ['NEEDS_REVIEW']);
    expect(review.reviewReason).toMatch(/may have been made/);
    await stack.admin('DELETE', '/sandbox/faults');
    const after = (
      await stack.admin<{ balances: { account: string; balanceCents: number }[] }>('GET', '/sandbox/balances')
    ).body;
    const recipient = (balances: typeof before) =>
      balances.balances.find((row) => row.account.includes('recipient'))?.balanceCents ?? 0;
    expect(recipient(after) - recipient(before)).toBe(777);

    // The provider cannot be asked about it: a recheck says so, and the operator's cancel is their decision.
    const recheck = await stack.api<PayoutResponse>('POST', `/v1/payouts/${id}/recheck`);
    expect(recheck.body.status).toBe('NEEDS_REVIEW');
    expect(recheck.body.reviewReason).toMatch(/cannot be asked/);
    const cancelled = await stack.api<PayoutResponse>('POST', `/v1/payouts/${id}/cancel`, {
      reason: 'recipient statement checked by the operator',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    await recordHistory(
      stack.temporal.client,
      payoutWorkflowId(id),
      currentPayoutHistory('internal-ambiguous-cancelled'),
    );
  });
});

// The seed profile shows no crypto withdrawal route, as the spec shows none: against it the rail is off.
(SANDBOX_SERVES_CRYPTO ? describe.skip : describe)(
  'crypto against a provider that shows no route (the seed profile)',
  () => {
    test('a crypto payout is refused with 422 RAIL_NOT_AVAILABLE and nothing starts; the quote still answers', async () => {
      const id = newExternalId('usdt-off');
      const answer = await pay({ externalId: id, method: 'crypto', amount: 100, wallet: TRON_WALLET });
      expect(answer.body).toMatchObject({ code: 'RAIL_NOT_AVAILABLE' });
      expect(await operations(id)).toEqual([]);
      expect((await stack.api('GET', '/v1/payouts/quote?method=crypto&amount=100')).status).toBe(200);
    });
  },
);

(SANDBOX_SERVES_CRYPTO ? describe : describe.skip)('crypto', () => {
  /** USDT for an amount at 5.40 reais per USDT, rounded down to 6 places, in integers only. */
  const usdtFor = (centavos: number): string => {
    const micro = (BigInt(centavos) * 1_000_000n) / 540n;
    return `${micro / 1_000_000n}.${String(micro % 1_000_000n).padStart(6, '0')}`;
  };

  test('a quote and a payout: the fee and USDT exact to 6 places, recorded, COMPLETED', async () => {
    const quote = await stack.api('GET', '/v1/payouts/quote?method=crypto&amount=123.45');
    expect(quote.status).toBe(200);
    expect(quote.body).toEqual({
      amount: 123.45,
      fee: 3.47,
      total: 126.92,
      usdtAmount: usdtFor(12345),
      usdtRate: 5.4,
      minAmount: 50,
      maxAmount: 50000,
    });

    const id = newExternalId('usdt');
    await pay({ externalId: id, method: 'crypto', amount: 123.45, wallet: TRON_WALLET });
    const done = await waitFor(id, ['COMPLETED']);
    expect(done).toMatchObject({
      method: 'crypto',
      amount: 123.45,
      fee: 3.47,
      total: 126.92,
      quote: { usdtAmount: usdtFor(12345), usdtRate: 5.4 },
    });
    expect(await providerDebits(stack, id)).toBe(1);
    await recordHistory(stack.temporal.client, payoutWorkflowId(id), currentPayoutHistory('crypto-completed'));
  });

  test('below the minimum or above the maximum: 422 naming both bounds, and nothing reaches the provider', async () => {
    for (const amount of [49.99, 50000.01]) {
      const id = newExternalId('usdt-bounds');
      const answer = await pay({ externalId: id, method: 'crypto', amount, wallet: TRON_WALLET });
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({
        code: 'AMOUNT_OUT_OF_RANGE',
        message: expect.stringContaining('between 50 and 50000'),
      });
      expect(await operations(id)).toEqual([]);
      expect((await stack.api('GET', `/v1/payouts/${id}`)).status).toBe(404);
    }
  });

  test('failed by the provider: FAILED with its reason; with callbacks dropped or duplicated the outcome is the same', async () => {
    const failing = newExternalId('usdt-fail');
    await pay({ externalId: failing, method: 'crypto', amount: 60.13, wallet: TRON_WALLET });
    expect((await waitFor(failing, ['FAILED'])).failureReason).toBe(
      'Transfer rejected on chain (sandbox rule: amount ending in .13)',
    );

    await stack.admin('PUT', '/sandbox/faults', { callbacks: { drop: { count: 1 } } });
    const dropped = newExternalId('usdt-drop');
    await pay({ externalId: dropped, method: 'crypto', amount: 70, wallet: TRON_WALLET });
    expect((await waitFor(dropped, ['COMPLETED'])).callbacksReceived).toBe(0);

    await stack.admin('PUT', '/sandbox/faults', { callbacks: { duplicate: { share: 1 } } });
    const duplicated = newExternalId('usdt-dup');
    await pay({
      externalId: duplicated,
      method: 'crypto',
      amount: 80,
      wallet: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
      network: 'BEP20',
    });
    await waitFor(duplicated, ['COMPLETED']);
    await afterDuplicateCallback(duplicated);
  });

  test('a wallet that does not fit its network is a 422 naming the wallet', async () => {
    const answer = await pay({
      externalId: newExternalId('usdt-wallet'),
      method: 'crypto',
      amount: 100,
      wallet: TRON_WALLET,
      network: 'ERC20',
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      code: 'PAYOUT_NOT_PAYABLE',
      issues: [{ path: 'wallet', message: 'is not a ERC20 address' }],
    });
  });
});

test('every rail is indexed by its flow: operators filter by rail in the Temporal UI', async () => {
  const id = newExternalId('flow');
  await pay({ externalId: id, method: 'internal', email: 'recipient@sandbox.test', amount: 1 });
  await waitFor(id, ['COMPLETED']);
  const description = await stack.temporal.client.workflow.getHandle(payoutWorkflowId(id)).describe();
  expect(description.searchAttributes.PayoutFlow).toEqual(['internal-transfer']);
});
