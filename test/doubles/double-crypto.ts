/**
 * Crypto: endpoint 12's fees (withdrawal_rate a fraction, rate_fixed in USDT: the double's units) and
 * endpoint 13, which finds nothing since the double makes no crypto withdrawal: the document does not
 * show the endpoint that creates one, so the double has none (a POST anywhere else is a 404).
 */
import { Router } from 'express';
import { refuse, type DoubleAuth } from './double-auth';

export const CRYPTO_FEES = {
  withdrawal_rate: 0.02,
  rate_fixed: 0.5,
  min_withdrawal: 20,
  max_withdrawal: 20_000,
  usdt_rate: 5.25,
} as const;

export function cryptoRoutes(auth: DoubleAuth): Router {
  const router = Router();
  router.get('/api/crypto/fees', auth.bearer, (_req, res) => {
    res.json(CRYPTO_FEES);
  });
  router.get('/api/crypto/status/:transactionId', auth.bearer, (_req, res) =>
    refuse(res, 404, 'saque cripto não encontrado'),
  );
  return router;
}
