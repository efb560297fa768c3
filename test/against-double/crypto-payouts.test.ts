/**
 * Crypto payouts against the provider double, which has no endpoint that creates a crypto withdrawal (the
 * document does not show one). Without PAYMENT_API_CRYPTO_WITHDRAW_PATH the rail is off: refused at once,
 * nothing starts, nothing reaches the double, and the fee quote (endpoint 12, shown) still works. With a
 * route set, the engine posts there once, and the double's 404 is a refusal: FAILED, never retried.
 */
import { forThisFile } from '../helpers/for-this-file';
import { newExternalId, waitForPayout } from '../helpers/payouts';
import { startAgainstDouble, type DoubleStack } from './double-stack';

const TRON_WALLET = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
// Not the engine's former built-in path: the request goes where the setting says.
const CRYPTO_ROUTE = '/api/crypto/saque';

const cryptoPosts = async (stack: DoubleStack) =>
  (await stack.control.requests()).filter(
    (request) => request.method === 'POST' && request.path.startsWith('/api/crypto'),
  );

describe('without a crypto route', () => {
  const stack = forThisFile(() => startAgainstDouble());

  test('a crypto payout is refused with 422 RAIL_NOT_AVAILABLE, and nothing starts or reaches the double', async () => {
    const id = newExternalId('dbl-usdt-off');
    const answer = await stack.engine.api<{ code: string }>('POST', '/v1/payouts', {
      externalId: id,
      method: 'crypto',
      amount: 100,
      wallet: TRON_WALLET,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe('RAIL_NOT_AVAILABLE');
    expect((await stack.engine.api('GET', `/v1/payouts/${id}`)).status).toBe(404);
    expect(await cryptoPosts(stack)).toEqual([]);
  });

  test("the fee quote reads the double's endpoint 12 in its units (a fraction, a fixed fee in USDT)", async () => {
    const quote = await stack.engine.api('GET', '/v1/payouts/quote?method=crypto&amount=100');
    expect(quote.status).toBe(200);
    // 2 % of 100,00 plus 0.5 USDT at 5.25 (2,625, half up): 4,63; 100 / 5.25 rounded down to 6 places.
    expect(quote.body).toEqual({
      amount: 100,
      fee: 4.63,
      total: 104.63,
      usdtAmount: '19.047619',
      usdtRate: 5.25,
      minAmount: 20,
      maxAmount: 20000,
    });
  });
});

describe('with a crypto route the double does not have', () => {
  const stack = forThisFile(() => startAgainstDouble({ PAYMENT_API_CRYPTO_WITHDRAW_PATH: CRYPTO_ROUTE }));

  test("the payout reaches the double once and ends FAILED with the double's message", async () => {
    const id = newExternalId('dbl-usdt-on');
    expect(
      (
        await stack.engine.api('POST', '/v1/payouts', {
          externalId: id,
          method: 'crypto',
          amount: 100,
          wallet: TRON_WALLET,
        })
      ).status,
    ).toBe(202);
    const payout = await waitForPayout(stack.engine, id, ['FAILED', 'NEEDS_REVIEW']);
    expect(payout.status).toBe('FAILED');
    expect(payout.failureReason).toEqual(expect.stringContaining('rota não encontrada'));
    expect(await cryptoPosts(stack)).toEqual([
      { method: 'POST', path: CRYPTO_ROUTE, at: expect.any(String) as unknown },
    ]);
  });
});
