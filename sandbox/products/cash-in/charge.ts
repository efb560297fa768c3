/**
 * A PIX cash-in charge (endpoints 10 and 6 share it): a BR Code for the amount, PENDING until a payer
 * pays it (the admin call simulates the payer), EXPIRED after SANDBOX_CASH_IN_EXPIRY_MS. Paying credits
 * the merchant through the ledger: `pix-in` (the outside world) → merchant (amount − 1 % fee, minus the
 * split share) + split user (share) + `fees` (fee). Every change after creation is announced to
 * `projectWebhook` (cashInCallbackSchema).
 *
 * Ids: the response and the callbacks carry the client's own `transactionId`; the provider's id
 * (`ci_…`) is what the transaction check returns; both are accepted wherever an id is read.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { centavosToReais, percentOf, reaisToCentavos, type Centavos } from '../../../src/money/centavos';
import {
  cashInCallbackSchema,
  type cashInRequestSchema,
  type CashInStatus,
} from '../../../src/payment-api/schemas/cash-in';
import { BrCodeError, buildBrCode, type BrCodeInput } from '../../../src/pix/brcode';
import type { SandboxContext } from '../../context';
import { rereadMoved, rereadOperation, sendOperationCallback } from '../operation-callback';
import { providerError, SandboxError } from '../../http/errors';
import { ACCOUNTS } from '../../ledger/ledger';
import { newOperationId, type Operation } from '../../store/operations';
import type { SandboxUser } from '../../store/users';
import { fingerprintOf } from '../pix-out';

export type CashInInput = z.output<typeof cashInRequestSchema>;
/** Which endpoint created the charge; both are one product and one idempotency namespace. */
export type CashInChannel = 'transactions/create' | 'payments/deposit';

export const CASH_IN_PRODUCT = 'cash-in';
export const CASH_IN_ID_PREFIX = 'ci';
export const CASH_IN_EXPIRE_JOB = 'cash-in.expire';
/** The outside world's side of an incoming PIX. */
export const PIX_IN_ACCOUNT = 'pix-in';
/** docs/assumptions.md §7: 1 % of the amount, deducted from the credit, half-up to the centavo. */
export const CASH_IN_FEE_BASIS_POINTS = 100;
/** The users table has no city; every sandbox merchant is in São Paulo (ASCII in the BR Code). */
export const CASH_IN_MERCHANT_CITY = 'SAO PAULO';
const FALLBACK_MERCHANT_NAME = 'SANDBOX MERCHANT';
const MAX_TXID_LENGTH = 25;
/** Merchant account template (26) holds at most 99 characters: GUI (18) + key (4 + n) + description (4 + m). */
const MERCHANT_ACCOUNT_ROOM = 99 - 18 - 4 - 4;

export function cashInFeeCents(amountCents: Centavos): Centavos {
  return percentOf(amountCents, CASH_IN_FEE_BASIS_POINTS);
}

/**
 * The BR Code txid (1-25 letters and digits) for a client transactionId: the id itself when it already
 * fits; otherwise its first letters and digits (up to 15) followed by hex of its SHA-256, 25 in all,
 * so two different ids never share a txid in practice.
 */
export function cashInTxid(transactionId: string): string {
  if (new RegExp(`^[A-Za-z0-9]{1,${MAX_TXID_LENGTH}}$`).test(transactionId)) return transactionId;
  const readable = transactionId.replace(/[^A-Za-z0-9]/g, '').slice(0, 15);
  const digest = createHash('sha256').update(transactionId, 'utf8').digest('hex');
  return `${readable}${digest.slice(0, MAX_TXID_LENGTH - readable.length)}`;
}

export interface CashInSplit {
  userId: string;
  /** splitTax in hundredths of a percent (12.5 % → 1250). */
  basisPoints: number;
}

/** What the charge keeps in operations.details (no payer document, no payer e-mail). */
export interface CashInDetails {
  channel: CashInChannel;
  txid: string;
  qrcode: string;
  expiresAt: number;
  payerName: string;
  split?: CashInSplit;
  description?: string;
  gateway?: string;
  /** Set when PAID. */
  paidAt?: number;
  paidBy?: string;
  endToEndId?: string;
  creditedCents?: number;
  splitCents?: number;
}

export function cashInDetails(operation: Operation): CashInDetails {
  return operation.details as unknown as CashInDetails;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The copy-and-paste code: the merchant's e-mail as PIX key, name, city, amount, txid (and the description when it fits). */
function chargeCode(owner: SandboxUser, amountCents: Centavos, txid: string, description: string | undefined): string {
  const base: BrCodeInput = {
    pixKey: owner.email,
    merchantName: owner.name,
    merchantCity: CASH_IN_MERCHANT_CITY,
    amountCentavos: amountCents,
    txid,
  };
  const room = MERCHANT_ACCOUNT_ROOM - owner.email.length;
  const attempts: BrCodeInput[] = [
    ...(description && room > 0 ? [{ ...base, description: description.slice(0, room) }] : []),
    base,
    { ...base, merchantName: FALLBACK_MERCHANT_NAME },
  ];
  let lastError: unknown;
  for (const attempt of attempts) {
    try {
      return buildBrCode(attempt);
    } catch (error) {
      if (!(error instanceof BrCodeError)) throw error;
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new Error('could not build the BR Code');
}

function resolveSplit(ctx: SandboxContext, caller: SandboxUser, input: CashInInput): CashInSplit | undefined {
  if (input.splitUser === undefined || input.splitTax === undefined) return undefined;
  const recipient = ctx.users.byEmail(input.splitUser);
  if (!recipient) {
    throw providerError('RECIPIENT_NOT_FOUND', 'splitUser does not belong to a user of this environment', [
      { path: 'splitUser', message: 'is not a user of this environment' },
    ]);
  }
  if (recipient.id === caller.id) {
    throw providerError(
      'RECIPIENT_NOT_FOUND',
      'splitUser is your own account: the split recipient must be another user',
      [{ path: 'splitUser', message: 'must be another user than the caller' }],
    );
  }
  // splitTax has at most 2 decimals (schema), so its "centavos" are exactly basis points.
  return { userId: recipient.id, basisPoints: reaisToCentavos(input.splitTax) };
}

/**
 * Creates the charge, or returns the existing one when the same transactionId comes again with the
 * same request (whichever of the two endpoints). Another request under the id → 409. The seed profile,
 * and SANDBOX_DEDUPLICATE=false, de-duplicate nothing.
 */
export function openCashIn(
  ctx: SandboxContext,
  caller: SandboxUser,
  input: CashInInput,
  channel: CashInChannel,
): { operation: Operation; replayed: boolean } {
  const amountCents = reaisToCentavos(input.amount);
  const split = resolveSplit(ctx, caller, input);
  const fingerprint = fingerprintOf([
    CASH_IN_PRODUCT,
    amountCents,
    input.payerName,
    input.payerDocument,
    input.projectWebhook,
    input.description ?? '',
    input.payerEmail?.toLowerCase() ?? '',
    split?.userId ?? '',
    split?.basisPoints ?? 0,
    input.gateway ?? '',
  ]);
  return ctx.db.transaction(() => {
    // The seed profile, like the spec, promises no de-duplication, nor does SANDBOX_DEDUPLICATE=false: the same transactionId again is a second charge.
    const existing =
      ctx.profile.deduplicates && ctx.config.SANDBOX_DEDUPLICATE
        ? ctx.operations.byExternalId(caller.id, input.transactionId)
        : undefined;
    if (existing) {
      if (existing.product !== CASH_IN_PRODUCT || existing.fingerprint !== fingerprint) {
        throw providerError(
          'IDEMPOTENCY_CONFLICT',
          `transactionId ${input.transactionId} was already used for a different request`,
        );
      }
      return { operation: existing, replayed: true };
    }
    const txid = cashInTxid(input.transactionId);
    const expiresAt = ctx.now() + ctx.config.SANDBOX_CASH_IN_EXPIRY_MS;
    const details: CashInDetails = {
      channel,
      txid,
      qrcode: chargeCode(caller, amountCents, txid, input.description),
      expiresAt,
      payerName: input.payerName,
      ...(split ? { split } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.gateway !== undefined ? { gateway: input.gateway } : {}),
    };
    const operation = ctx.operations.insert({
      id: newOperationId(CASH_IN_ID_PREFIX),
      userId: caller.id,
      product: CASH_IN_PRODUCT,
      externalId: input.transactionId,
      status: 'PENDING' satisfies CashInStatus,
      amountCents,
      feeCents: cashInFeeCents(amountCents),
      fingerprint,
      callbackUrl: input.projectWebhook,
      details: { ...details },
    });
    ctx.scheduler.schedule(CASH_IN_EXPIRE_JOB, operation.id, expiresAt);
    return { operation, replayed: false };
  })();
}

export function cashInResponseBody(operation: Operation, message: string) {
  const details = cashInDetails(operation);
  return {
    message,
    qrCodeResponse: {
      transactionId: operation.externalId ?? operation.id,
      status: operation.status,
      qrcode: details.qrcode,
      amount: centavosToReais(operation.amountCents),
      expiresAt: iso(details.expiresAt),
    },
  };
}

/** An E2E id in the BCB format: E + ISPB (8 digits) + yyyyMMddHHmm + 11 characters. */
function endToEndId(at: number): string {
  const stamp = iso(at).replace(/\D/g, '').slice(0, 12);
  return `E99999999${stamp}${randomBytes(8).toString('hex').slice(0, 11)}`;
}

function announce(ctx: SandboxContext, operation: Operation): void {
  const details = cashInDetails(operation);
  const paid = operation.status === 'PAID';
  const payload = {
    transactionId: operation.externalId ?? operation.id,
    status: operation.status,
    amount: centavosToReais(operation.amountCents),
    type: 'Deposit' as const,
    ...(paid && details.paidAt !== undefined ? { paidAt: iso(details.paidAt) } : {}),
    ...(paid && details.paidBy !== undefined ? { payerName: details.paidBy } : {}),
    ...(paid && details.endToEndId !== undefined ? { endToEndId: details.endToEndId } : {}),
    updatedAt: iso(operation.updatedAt),
  };
  sendOperationCallback(ctx, operation, 'Deposit', cashInCallbackSchema, payload);
}

function refuseUnlessPending(operation: Operation): void {
  if (operation.status !== 'PENDING') {
    throw new SandboxError(
      409,
      'OPERATION_FINAL',
      `Cash-in ${operation.externalId ?? operation.id} is ${operation.status}: only a PENDING charge can be paid`,
    );
  }
}

/**
 * The payer pays the charge: PENDING → PAID, the ledger entry, the PAID callback. Call inside a
 * transaction; a charge that is no longer PENDING is refused with 409 (nothing is credited twice).
 */
export function payCashIn(
  ctx: SandboxContext,
  operation: Operation,
  payer: { payerName?: string | undefined },
): Operation {
  refuseUnlessPending(operation);
  const details = cashInDetails(operation);
  const now = ctx.now();
  const creditedCents = operation.amountCents - operation.feeCents;
  // The split is taken from the credit after the fee, half-up; the remainder stays with the merchant.
  const splitCents = details.split ? percentOf(creditedCents, details.split.basisPoints) : 0;
  const paidDetails: CashInDetails = {
    ...details,
    paidAt: now,
    paidBy: payer.payerName ?? details.payerName,
    endToEndId: endToEndId(now),
    creditedCents,
    splitCents,
  };
  if (!ctx.operations.transition(operation.id, 'PENDING', 'PAID', { details: { ...paidDetails } }))
    refuseUnlessPending(rereadOperation(ctx, operation.id));
  ctx.scheduler.cancelFor(operation.id);
  ctx.ledger.post({
    kind: 'cash-in.paid',
    operationId: operation.id,
    externalId: operation.externalId,
    lines: [
      { account: PIX_IN_ACCOUNT, amountCents: -operation.amountCents },
      { account: ACCOUNTS.user(operation.userId), amountCents: creditedCents - splitCents },
      ...(details.split ? [{ account: ACCOUNTS.user(details.split.userId), amountCents: splitCents }] : []),
      { account: ACCOUNTS.fees, amountCents: operation.feeCents },
    ],
  });
  const paid = rereadMoved(ctx, operation.id, 'sandbox.cash_in_paid', { externalId: operation.externalId });
  announce(ctx, paid);
  return paid;
}

/** PENDING → EXPIRED or FAILED, nothing credited; a no-op (false) when the charge is no longer PENDING. */
export function closeCashIn(
  ctx: SandboxContext,
  operation: Operation,
  status: 'EXPIRED' | 'FAILED',
  reason?: string,
): boolean {
  if (!ctx.operations.transition(operation.id, 'PENDING', status, { failureReason: reason ?? null })) return false;
  ctx.scheduler.cancelFor(operation.id);
  const closed = rereadMoved(ctx, operation.id, 'sandbox.cash_in_closed', { externalId: operation.externalId });
  announce(ctx, closed);
  return true;
}

/**
 * A cash-in for the admin API, which is not scoped to one client: by provider id, else by the
 * client's transactionId when exactly one client used it.
 */
export function findCashIn(ctx: SandboxContext, reference: string): Operation {
  const byId = ctx.operations.byId(reference);
  const candidates = byId ? [byId] : ctx.operations.list({ externalId: reference, product: CASH_IN_PRODUCT, limit: 2 });
  const [operation, other] = candidates;
  if (!operation || operation.product !== CASH_IN_PRODUCT) throw providerError('NOT_FOUND', `No cash-in ${reference}`);
  if (other)
    throw new SandboxError(
      409,
      'AMBIGUOUS_TRANSACTION_ID',
      `Several clients used transactionId ${reference}: use the provider id (ci_…)`,
    );
  return operation;
}
