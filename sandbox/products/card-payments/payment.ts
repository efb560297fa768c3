/**
 * A card payment: checked (Luhn, brand, expiry, then the browser's token and 3DS result:
 * ./card-authentication.ts), created PENDING, captured SANDBOX_SETTLE_MS later (COMPLETED / PAID:
 * `card-in` → merchant net, fee → `fees`) or declined (FAILED / DECLINED), each change announced to
 * clientCallbackUrl when given (PAYMENT_UPDATED, cardCallbackSchema).
 *
 * Card data at rest: last four digits, brand and holder name only. The full number, the ccv and the
 * card token (which the environment's key opens) live in the request object of this one call and
 * are never written, logged or echoed in an error.
 *
 * Test cards (./test-cards.ts): insufficient funds → 422 CARD_REFUSED at once, nothing stored;
 * declined → accepted PENDING, then FAILED / providerStatus DECLINED at settlement.
 */
import { randomBytes } from 'node:crypto';
import { cardBrand, expiryInFuture, last4, luhnValid } from '../../../src/card/card';
import { centavosToReais, percentOf, reaisToCentavos, type Centavos } from '../../../src/money/centavos';
import {
  cardCallbackSchema,
  DEFAULT_CARD_CURRENCY,
  type CardPaymentInput,
  type CardPaymentStatus,
} from '../../../src/payment-api/schemas/card';
import type { ErrorIssue } from '../../../src/payment-api/schemas/errors';
import type { SandboxContext } from '../../context';
import { rereadMoved, sendOperationCallback } from '../operation-callback';
import { providerError } from '../../http/errors';
import { ACCOUNTS } from '../../ledger/ledger';
import type { Migration } from '../../store/database';
import { newOperationId, type Operation } from '../../store/operations';
import type { SandboxUser } from '../../store/users';
import { checkCardAuthentication } from './card-authentication';
import { consumeSession, threeDSSessionMigrations } from './shield/sessions';
import { DECLINED_REASON, INSUFFICIENT_FUNDS_MESSAGE, testCardBehaviour } from './test-cards';

export const CARD_PAYMENT_PRODUCT = 'card-payment';
export const CARD_SETTLE_JOB = 'card-payment.settle';
/** The outside world's side of a card capture. */
export const CARD_IN_ACCOUNT = 'card-in';
/** docs/assumptions.md §7: 3.99 % of the amount, any installment count, half-up. */
export const CARD_FEE_BASIS_POINTS = 399;
export const CARD_PROVIDER_NAME = 'sandbox-acquirer';

export const cardPaymentMigrations: readonly Migration[] = [
  {
    id: 'card-payments/001-ids',
    // The spec's data.id is an integer; operations ids are text, so the integer comes from here.
    sql: `CREATE TABLE card_payments (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      operation_id TEXT NOT NULL UNIQUE REFERENCES operations(id)
    );`,
  },
  ...threeDSSessionMigrations,
];

export function cardFeeCents(amountCents: Centavos): Centavos {
  return percentOf(amountCents, CARD_FEE_BASIS_POINTS);
}

type ProviderStatus = 'PENDING' | 'PAID' | 'DECLINED';

/** What operations.details keeps: never the number, never the ccv. */
export interface CardDetails {
  paymentId: number;
  brand: string;
  last4: string;
  holderName: string;
  providerStatus: ProviderStatus;
  providerReferences: { transactionId: string; customerId: string; cardId: string };
  installmentCount: number;
  dueDate: string;
  currency: string;
  walletCreditEnabled: boolean;
  global?: boolean;
  externalReference?: string;
  description?: string;
  /** A creditCardToken was sent and opened to this very card; the token itself is never kept. */
  cardTokenVerified?: boolean;
  sessionId?: string;
  threeDS?: CardPaymentInput['creditCard']['threeDS'];
  itemsCount?: number;
}

export function cardDetails(operation: Operation): CardDetails {
  return operation.details as unknown as CardDetails;
}

/** Business checks of the card (the shape was checked by the schema): 422 CARD_REFUSED with each field. */
function refuseBadCard(card: CardPaymentInput['creditCard'], now: number): void {
  const issues: ErrorIssue[] = [];
  if (!luhnValid(card.number)) issues.push({ path: 'creditCard.number', message: 'fails the Luhn check' });
  else if (cardBrand(card.number) === 'UNKNOWN')
    issues.push({ path: 'creditCard.number', message: 'brand not recognised from the card number' });
  if (!expiryInFuture(card.expiryMonth, card.expiryYear, new Date(now))) {
    issues.push({ path: 'creditCard.expiryYear', message: 'the card expired (expiryMonth/expiryYear is in the past)' });
  }
  if (issues.length > 0) throw providerError('CARD_REFUSED', 'Card refused', issues);
}

const reference = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Validates, then creates the payment and its settlement job in one transaction. */
export function createCardPayment(ctx: SandboxContext, caller: SandboxUser, input: CardPaymentInput): Operation {
  const { creditCard } = input;
  refuseBadCard(creditCard, ctx.now());
  const amountCents = reaisToCentavos(input.amount);
  const sessionId = checkCardAuthentication(ctx, input, amountCents);
  // The acquirer answers after the issuer authenticated the buyer.
  const behaviour = testCardBehaviour(creditCard.number);
  if (behaviour === 'insufficientFunds') {
    throw providerError('CARD_REFUSED', 'Card refused by the issuer: insufficient funds', [
      { path: 'creditCard.number', message: INSUFFICIENT_FUNDS_MESSAGE },
    ]);
  }
  const base = {
    brand: cardBrand(creditCard.number),
    last4: last4(creditCard.number),
    holderName: creditCard.holderName,
    providerStatus: 'PENDING' as ProviderStatus,
    providerReferences: { transactionId: reference('tr'), customerId: reference('cus'), cardId: reference('card') },
    installmentCount: input.installmentCount,
    dueDate: input.dueDate,
    currency: creditCard.currency ?? DEFAULT_CARD_CURRENCY,
    walletCreditEnabled: input.wallet_credit_enabled ?? true,
    ...(input.global !== undefined ? { global: input.global } : {}),
    ...(input.externalReference !== undefined ? { externalReference: input.externalReference } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.creditCardToken !== undefined ? { cardTokenVerified: true } : {}),
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(creditCard.threeDS !== undefined ? { threeDS: creditCard.threeDS } : {}),
    ...(input.items !== undefined ? { itemsCount: input.items.length } : {}),
  };
  const outcome = behaviour === 'declined' ? 'FAILED' : 'COMPLETED';
  return ctx.db.transaction(() => {
    const operationId = newOperationId('cp');
    const operation = ctx.operations.insert({
      id: operationId,
      userId: caller.id,
      product: CARD_PAYMENT_PRODUCT,
      externalId: null,
      status: 'PENDING' satisfies CardPaymentStatus,
      amountCents,
      feeCents: cardFeeCents(amountCents),
      fingerprint: null,
      callbackUrl: input.clientCallbackUrl ?? null,
      details: {},
    });
    if (sessionId !== undefined && !consumeSession(ctx, sessionId, operationId)) {
      throw providerError('THREE_DS_INVALID', 'The 3DS authentication does not fit this payment', [
        {
          path: 'creditCard.sessionId',
          message: 'the 3DS session cannot be used: it was already used by another payment',
        },
      ]);
    }
    const paymentId = Number(
      ctx.db.prepare('INSERT INTO card_payments (operation_id) VALUES (?)').run(operationId).lastInsertRowid,
    );
    const details: CardDetails = { paymentId, ...base };
    // The integer id exists only once the row is in; a same-status transition records it in the details.
    ctx.operations.transition(operationId, operation.status, operation.status, { details: { ...details } });
    ctx.scheduler.schedule(CARD_SETTLE_JOB, operationId, ctx.now() + ctx.config.SANDBOX_SETTLE_MS, { status: outcome });
    return { ...operation, details: { ...details } };
  })();
}

/** The caller's payment by its integer id; another client's payment is as unknown as a missing one. */
export function findCardPayment(ctx: SandboxContext, caller: SandboxUser, paymentId: string): Operation {
  const row = /^\d{1,15}$/.test(paymentId)
    ? ctx.db
        .prepare<[number], { operation_id: string }>('SELECT operation_id FROM card_payments WHERE id = ?')
        .get(Number(paymentId))
    : undefined;
  const operation = row ? ctx.operations.byId(row.operation_id) : undefined;
  if (!operation || operation.userId !== caller.id)
    throw providerError('NOT_FOUND', `No card payment ${paymentId} for this client`);
  return operation;
}

/** `data` of the creation response (and, with the extra fields, of the GET). */
export function cardPaymentData(operation: Operation) {
  const details = cardDetails(operation);
  return {
    id: details.paymentId,
    status: operation.status,
    amount: centavosToReais(operation.amountCents),
    netValue: centavosToReais(operation.amountCents - operation.feeCents),
    brand: details.brand,
    last4: details.last4,
    // The sandbox issues no invoice or receipt documents: both stay null.
    invoiceUrl: null,
    receiptUrl: null,
    provider: CARD_PROVIDER_NAME,
    providerReferences: details.providerReferences,
  };
}

export function cardPaymentDetailsData(operation: Operation) {
  const details = cardDetails(operation);
  return {
    ...cardPaymentData(operation),
    providerStatus: details.providerStatus,
    externalReference: details.externalReference ?? null,
    installmentCount: details.installmentCount,
    createdAt: new Date(operation.createdAt).toISOString(),
    updatedAt: new Date(operation.updatedAt).toISOString(),
  };
}

/** PENDING → COMPLETED (captured, credited) or FAILED (declined); a no-op when no longer PENDING. Inside a transaction. */
export function settleCardPayment(ctx: SandboxContext, operation: Operation, status: 'COMPLETED' | 'FAILED'): boolean {
  const details = cardDetails(operation);
  const providerStatus: ProviderStatus = status === 'COMPLETED' ? 'PAID' : 'DECLINED';
  const reason = status === 'FAILED' ? DECLINED_REASON : null;
  if (
    !ctx.operations.transition(operation.id, 'PENDING', status, {
      failureReason: reason,
      details: { ...details, providerStatus },
    })
  )
    return false;
  ctx.scheduler.cancelFor(operation.id);
  if (status === 'COMPLETED') {
    ctx.ledger.post({
      kind: 'card-payment.captured',
      operationId: operation.id,
      externalId: null,
      lines: [
        { account: CARD_IN_ACCOUNT, amountCents: -operation.amountCents },
        { account: ACCOUNTS.user(operation.userId), amountCents: operation.amountCents - operation.feeCents },
        { account: ACCOUNTS.fees, amountCents: operation.feeCents },
      ],
    });
  }
  const settled = rereadMoved(ctx, operation.id, 'sandbox.card_payment_settled', { paymentId: details.paymentId });
  sendOperationCallback(ctx, settled, 'Card', cardCallbackSchema, {
    id: details.paymentId,
    type: 'Card' as const,
    status: settled.status,
    amount: centavosToReais(settled.amountCents),
    netValue: centavosToReais(settled.amountCents - settled.feeCents),
    brand: details.brand,
    last4: details.last4,
    provider: CARD_PROVIDER_NAME,
    providerTransactionId: details.providerReferences.transactionId,
    providerCustomerId: details.providerReferences.customerId,
    providerStatus,
    eventType: 'PAYMENT_UPDATED' as const,
    ...(details.externalReference !== undefined ? { externalReference: details.externalReference } : {}),
    updatedAt: new Date(settled.updatedAt).toISOString(),
    note: 'status_updated',
  });
  return true;
}
