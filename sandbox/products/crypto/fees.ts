/**
 * The crypto fee settings (docs/assumptions.md §4.6), kept in the sandbox's settings table so an
 * operator can change them (PUT /sandbox/crypto/fees) and they survive a restart:
 * `withdrawal_rate` a percentage, `rate_fixed`, `min_withdrawal`, `max_withdrawal` in reais,
 * `usdt_rate` reais per USDT.
 */
import Decimal from 'decimal.js';
import express, { Router } from 'express';
import { z } from 'zod';
import { reaisToCentavos, type Centavos } from '../../../src/money/centavos';
import { MAX_OPERATION_REAIS } from '../../../src/payment-api/schemas/common';
import { cryptoFeesResponseSchema } from '../../../src/payment-api/schemas/crypto';
import type { SandboxContext } from '../../context';
import { parseOrRefuse } from '../../http/errors';
import { readOrCreateSetting } from '../../store/database';

export const CRYPTO_FEES_SETTING = 'crypto_fees';

export type CryptoFees = {
  withdrawal_rate: number;
  rate_fixed: number;
  min_withdrawal: number;
  max_withdrawal: number;
  usdt_rate: number;
};

export const DEFAULT_CRYPTO_FEES: CryptoFees = {
  withdrawal_rate: 2,
  rate_fixed: 1,
  min_withdrawal: 50,
  max_withdrawal: 50_000,
  usdt_rate: 5.4,
};

/** The contract's field schemas, strict, plus what makes the settings usable: reais with 2 places, min ≤ max. */
const cryptoFeesSettingsSchema = z.strictObject(cryptoFeesResponseSchema.shape).superRefine((fees, ctx) => {
  for (const field of ['rate_fixed', 'min_withdrawal', 'max_withdrawal'] as const) {
    try {
      reaisToCentavos(fees[field]);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: [field], message: `amount ${(error as Error).message}` });
    }
  }
  if (fees.min_withdrawal > fees.max_withdrawal)
    ctx.addIssue({ code: 'custom', path: ['min_withdrawal'], message: 'must not exceed max_withdrawal' });
  if (fees.max_withdrawal > MAX_OPERATION_REAIS)
    ctx.addIssue({ code: 'custom', path: ['max_withdrawal'], message: `must be at most ${MAX_OPERATION_REAIS}` });
  if (fees.withdrawal_rate > 100)
    ctx.addIssue({ code: 'custom', path: ['withdrawal_rate'], message: 'is a percentage: at most 100' });
});

export function readCryptoFees(ctx: SandboxContext): CryptoFees {
  const stored = readOrCreateSetting(ctx.db, CRYPTO_FEES_SETTING, () => JSON.stringify(DEFAULT_CRYPTO_FEES));
  const fees = cryptoFeesSettingsSchema.parse(JSON.parse(stored));
  return {
    withdrawal_rate: fees.withdrawal_rate,
    rate_fixed: fees.rate_fixed,
    min_withdrawal: fees.min_withdrawal,
    max_withdrawal: fees.max_withdrawal,
    usdt_rate: fees.usdt_rate,
  };
}

/** rate_fixed + withdrawal_rate % of the amount, half-up to the centavo, in decimal arithmetic (the rate may have decimals). */
export function cryptoFeeCents(amountCents: Centavos, fees: CryptoFees): Centavos {
  const percentage = new Decimal(amountCents)
    .mul(new Decimal(String(fees.withdrawal_rate)))
    .div(100)
    .toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  return reaisToCentavos(fees.rate_fixed) + percentage.toNumber();
}

/**
 * Admin controls of the crypto settings, mounted under /sandbox/ behind the admin token check:
 *
 *   GET /sandbox/crypto/fees                 the current settings
 *   PUT /sandbox/crypto/fees  { any field }  changes the given fields (400 with field paths when invalid)
 */
export function cryptoAdminRoutes(ctx: SandboxContext): Router {
  const router = Router();
  router.get('/crypto/fees', (_req, res) => {
    res.json({ fees: readCryptoFees(ctx) });
  });
  router.put('/crypto/fees', express.json({ limit: '16kb' }), (req, res) => {
    const patch: unknown = req.body ?? {};
    const merged =
      typeof patch === 'object' && patch !== null && !Array.isArray(patch)
        ? { ...readCryptoFees(ctx), ...patch }
        : patch;
    const fees = parseOrRefuse(cryptoFeesSettingsSchema, merged, 'body');
    ctx.db
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
      .run(CRYPTO_FEES_SETTING, JSON.stringify(fees));
    ctx.logger.info('sandbox.crypto_fees_set', { fees });
    res.json({ fees: readCryptoFees(ctx) });
  });
  return router;
}
