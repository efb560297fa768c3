/** Endpoint 12's units by setting (CRYPTO_FEE_RATE_UNIT, CRYPTO_FEE_FIXED_UNIT): every reading gives the same quote. */
import { inEngineUnits } from '../../src/payment-api/crypto-fee-units';
import { quoteCrypto } from '../../src/payouts/rails/crypto/quote';

const bounds = { min_withdrawal: 10, max_withdrawal: 50_000, usdt_rate: 5.4 };

test('a fraction rate and a fixed part in USDT read as the engine reads percent and reais: the same fee', () => {
  const engine = inEngineUnits(
    { ...bounds, withdrawal_rate: 2, rate_fixed: 1.08 },
    { rate: 'percent', fixed: 'reais' },
  );
  const other = inEngineUnits(
    { ...bounds, withdrawal_rate: 0.02, rate_fixed: 0.2 },
    { rate: 'fraction', fixed: 'usdt' },
  );
  expect(other).toEqual({ ...bounds, withdrawal_rate: 2, rate_fixed: 1.08 });
  expect(quoteCrypto(12_345, other)).toEqual(quoteCrypto(12_345, engine));
  expect(quoteCrypto(12_345, engine)).toMatchObject({ ok: true, quote: { feeCents: 108 + 247 } });
});
