/**
 * Card payments: endpoint 2 (the document's request and response), endpoint 3 (its shape is not shown:
 * `{ data: { id, status, amount } }` and nothing more), and the PAYMENT_UPDATED callback (the document's payload)
 * once the payment completes, a moment after it was created. The challenge card is charged only with the
 * token of an approved challenge and its session; any other card with or without 3DS data.
 */
import { Router } from 'express';
import { sendCallback } from './double-callbacks';
import { CHALLENGE_CARD, type BrowserState } from './double-browser';
import { refuse, type DoubleAuth } from './double-auth';
import {
  basisPoints,
  centavosToReais,
  opaque,
  reaisToCentavos,
  type DoubleState,
  type Operation,
} from './double-state';

const PROVIDER_NAME = 'DoubleAdquirente';
/** The acquirer's share of a card payment: 3.99 %, rounded half up. */
const CARD_FEE_BASIS_POINTS = 399;
const MAX_INSTALLMENTS = 12;

const text = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

function luhn(number: string): boolean {
  let sum = 0;
  for (const [index, char] of [...number].reverse().entries()) {
    const digit = Number(char) * (index % 2 === 1 ? 2 : 1);
    sum += digit > 9 ? digit - 9 : digit;
  }
  return sum % 10 === 0;
}

const brandOf = (number: string): string =>
  number.startsWith('4') ? 'VISA' : number.startsWith('5') ? 'MASTERCARD' : 'ELO';

/** What is wrong with the request's card and 3DS data, in the double's words; undefined when it may be charged. */
function cardProblem(
  browser: BrowserState,
  body: Record<string, unknown>,
  card: Record<string, unknown>,
): string | undefined {
  if (
    !text(card.holderName) ||
    !text(card.ccv) ||
    !/^\d{2}$/.test(String(card.expiryMonth)) ||
    !/^\d{4}$/.test(String(card.expiryYear))
  ) {
    return 'creditCard precisa de holderName, expiryMonth (2 dígitos), expiryYear (4 dígitos) e ccv';
  }
  if (!text(card.number) || !/^\d{12,19}$/.test(card.number) || !luhn(card.number)) return 'creditCard.number inválido';
  const session = text(card.sessionId) ? browser.sessions.get(card.sessionId) : undefined;
  if (text(card.sessionId) && !session) return 'sessionId desconhecido';
  const threeDS = card.threeDS as { referenceId?: unknown } | undefined;
  if (session && threeDS?.referenceId !== undefined && threeDS.referenceId !== session.threeDS.referenceId)
    return 'threeDS não corresponde à sessão';
  const token = text(body.creditCardToken) ? browser.tokens.get(body.creditCardToken) : undefined;
  if (text(body.creditCardToken) && token?.number !== card.number) return 'creditCardToken não corresponde ao cartão';
  if (card.number === CHALLENGE_CARD) {
    const approved =
      token?.challengeId !== undefined &&
      browser.challengeStatus(token.challengeId) === 'APROVADO' &&
      token.sessionId === card.sessionId;
    if (!approved) return 'este cartão exige autenticação 3DS com desafio aprovado';
  }
  return undefined;
}

export interface CardTimer {
  schedule(run: () => void): void;
}

export function cardRoutes(state: DoubleState, browser: BrowserState, auth: DoubleAuth, timer: CardTimer): Router {
  const router = Router();

  function complete(operation: Operation, externalReference: string | undefined): void {
    const card = operation.card;
    if (!card) return;
    state.move(operation, 'COMPLETO');
    void sendCallback(state, operation.callbackUrl, {
      id: card.paymentId,
      type: 'Card',
      status: 'COMPLETED',
      amount: centavosToReais(operation.amountCents),
      netValue: centavosToReais(card.netCents),
      brand: card.brand,
      last4: card.last4,
      provider: PROVIDER_NAME,
      providerTransactionId: operation.id,
      providerCustomerId: `cus_${card.paymentId}`,
      providerStatus: 'PAID',
      eventType: 'PAYMENT_UPDATED',
      ...(externalReference ? { externalReference } : {}),
      updatedAt: operation.updatedAt,
      note: 'status_updated',
    });
  }

  router.post('/api/v1/card/payments', auth.bearer, (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const amountCents = reaisToCentavos(body.amount);
    if (amountCents === undefined) return refuse(res, 400, 'amount deve ser um valor positivo em reais');
    if (
      !Number.isInteger(body.installmentCount) ||
      (body.installmentCount as number) < 1 ||
      (body.installmentCount as number) > MAX_INSTALLMENTS
    ) {
      return refuse(res, 400, `installmentCount deve ser de 1 a ${MAX_INSTALLMENTS}`);
    }
    if (typeof body.dueDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(body.dueDate))
      return refuse(res, 400, 'dueDate deve ser YYYY-MM-DD');
    const payer = (body.payer ?? {}) as Record<string, unknown>;
    if (!['name', 'email', 'document', 'phone'].every((name) => text(payer[name])))
      return refuse(res, 400, 'payer precisa de name, email, document e phone');
    const card = (body.creditCard ?? {}) as Record<string, unknown>;
    const problem = cardProblem(browser, body, card);
    if (problem) return refuse(res, 400, problem);
    const number = card.number as string;
    const externalReference = text(body.externalReference) ? body.externalReference : undefined;
    const netCents = amountCents - basisPoints(amountCents, CARD_FEE_BASIS_POINTS);
    const paymentId = state.cardPaymentId();
    const operation = state.add({
      kind: 'card-payment',
      ...(externalReference ? { clientId: externalReference } : {}),
      amountCents,
      feeCents: amountCents - netCents,
      state: 'PROCESSING',
      callbackUrl: text(body.clientCallbackUrl) ? body.clientCallbackUrl : undefined,
      card: { paymentId, brand: brandOf(number), last4: number.slice(-4), netCents },
    });
    timer.schedule(() => complete(operation, externalReference));
    res.json({
      message: 'Pagamento criado',
      data: {
        id: paymentId,
        status: 'PENDING',
        amount: centavosToReais(amountCents),
        netValue: centavosToReais(netCents),
        brand: brandOf(number),
        last4: number.slice(-4),
        invoiceUrl: null,
        receiptUrl: null,
        provider: PROVIDER_NAME,
        providerReferences: {
          transactionId: operation.id,
          customerId: `cus_${paymentId}`,
          cardId: `card_${opaque(6)}`,
        },
      },
    });
  });

  router.get('/api/v1/card/payments/:id', auth.bearer, (req, res) => {
    const operation = state.operations.find((candidate) => String(candidate.card?.paymentId) === req.params.id);
    if (!operation) return refuse(res, 404, 'pagamento não encontrado');
    res.json({
      data: {
        id: operation.card?.paymentId,
        status: operation.state === 'COMPLETO' ? 'COMPLETED' : 'PENDING',
        amount: centavosToReais(operation.amountCents),
      },
    });
  });

  return router;
}
