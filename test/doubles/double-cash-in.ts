/**
 * PIX cash-in (endpoint 10): a charge answered with the double's own id and a static code carrying the
 * amount, payable until its lifetime ends. Payment and early expiry come from the test (`payCharge`,
 * `expireCharge`); each tells the charge's projectWebhook. Endpoint 6 (deposit) is not served.
 */
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { buildCode } from './double-brcode';
import { chargeStatusPayload, sendCallback } from './double-callbacks';
import { refuse, type DoubleAuth } from './double-auth';
import { basisPoints, centavosToReais, reaisToCentavos, type DoubleState, type Operation } from './double-state';

/** The double's fee on money in: 0.99 % of the amount, taken when the charge is paid. */
const CASH_IN_FEE_BASIS_POINTS = 99;
/** The key every code of the double pays into (a random key, EVP). */
const RECEIVING_KEY = randomUUID();

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

export function cashInRoutes(state: DoubleState, auth: DoubleAuth, chargeLifetimeMs: number): Router {
  const router = Router();
  router.post('/api/transactions/create', auth.clientHeaders, (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const amountCents = reaisToCentavos(body.amount);
    if (amountCents === undefined) return refuse(res, 400, 'amount deve ser um valor positivo em reais');
    const [transactionId, payerName, payerDocument, projectWebhook] = [
      text(body.transactionId),
      text(body.payerName),
      text(body.payerDocument),
      text(body.projectWebhook),
    ];
    if (!transactionId || !payerName || !projectWebhook)
      return refuse(res, 400, 'transactionId, payerName e projectWebhook são obrigatórios');
    if (!payerDocument || !/^\d{11}$|^\d{14}$/.test(payerDocument))
      return refuse(res, 400, 'payerDocument deve ter 11 ou 14 dígitos, sem máscara');
    const txid = randomUUID().replace(/-/g, '').slice(0, 25);
    const qrcode = buildCode({ pixKey: RECEIVING_KEY, amount: centavosToReais(amountCents).toFixed(2), txid });
    const operation = state.add({
      kind: 'cash-in',
      clientId: transactionId,
      amountCents,
      feeCents: 0,
      state: 'PENDENTE',
      callbackUrl: projectWebhook,
      charge: { qrcode, expiresAtMs: state.now() + chargeLifetimeMs },
    });
    res.json({
      message: 'Cobrança criada',
      qrCodeResponse: { transactionId: operation.id, status: 'PENDING', qrcode, amount: centavosToReais(amountCents) },
    });
  });
  return router;
}

/** The payer pays the charge: refused (a message) unless it is still payable. */
export function payCharge(state: DoubleState, operation: Operation): string | undefined {
  if (operation.kind !== 'cash-in') return 'not a charge';
  if (operation.state !== 'PENDENTE') return `the charge is ${operation.state}`;
  operation.feeCents = basisPoints(operation.amountCents, CASH_IN_FEE_BASIS_POINTS);
  state.balanceCents += operation.amountCents - operation.feeCents;
  state.move(operation, 'COMPLETO');
  void sendCallback(state, operation.callbackUrl, chargeStatusPayload(operation));
  return undefined;
}

/** The charge's lifetime ends now: refused (a message) unless it is still payable. */
export function expireCharge(state: DoubleState, operation: Operation): string | undefined {
  if (operation.kind !== 'cash-in') return 'not a charge';
  if (operation.state !== 'PENDENTE') return `the charge is ${operation.state}`;
  state.move(operation, 'EXPIRADO');
  void sendCallback(state, operation.callbackUrl, chargeStatusPayload(operation));
  return undefined;
}
