/**
 * A USDT withdrawal (docs/assumptions.md §4.4-4.6): amount within min..max, converted at the current
 * usdt_rate (decimal, rounded down to 6 places), amount + fee debited at request (`crypto-out:pending`
 * and `fees`), settled SANDBOX_SETTLE_MS later with a txHash, then one signed callback with the final
 * status. Outcome by the centavos of the amount, as for PIX payouts (sandbox/README.md): .13 → FAILED (amount and fee
 * return), .14 → stays PROCESSING (force it with the admin outcome call), anything else → COMPLETED.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { centavosToReais, formatCentavos, reaisToCentavos } from '../../../src/money/centavos';
import {
  cryptoWithdrawalCallbackSchema,
  usdtAmountForReais,
  type CryptoNetwork,
  type cryptoWithdrawalRequestSchema,
  type CryptoWithdrawalStatus,
} from '../../../src/payment-api/schemas/crypto';
import type { SandboxContext } from '../../context';
import { providerError } from '../../http/errors';
import { postOutgoingDebit, postOutgoingOutcome, type OutgoingAccounts } from '../../ledger/outgoing-payment';
import { newOperationId, type Operation } from '../../store/operations';
import type { SandboxUser } from '../../store/users';
import { fingerprintOf, outcomeForAmount, replayedOperation } from '../pix-out';
import type { ForcedOutcome } from '../product';
import { rereadMoved, sendOperationCallback } from '../operation-callback';
import { cryptoFeeCents, readCryptoFees } from './fees';

export type CryptoWithdrawalInput = z.output<typeof cryptoWithdrawalRequestSchema>;

export const CRYPTO_PRODUCT = 'crypto-withdrawal';
export const CRYPTO_SETTLE_JOB = 'crypto-withdrawal.settle';
export const CRYPTO_ACCOUNTS = {
  pending: 'crypto-out:pending',
  settled: 'crypto-out:settled',
} as const satisfies OutgoingAccounts;
export const CRYPTO_RULE_FAILED_REASON = 'Transfer rejected on chain (sandbox rule: amount ending in .13)';

export interface CryptoDetails {
  wallet: string;
  network: CryptoNetwork;
  usdtAmount: string;
  usdtRate: number;
  txHash?: string;
}

export function cryptoDetails(operation: Operation): CryptoDetails {
  return operation.details as unknown as CryptoDetails;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The withdrawal's common fields (response, status and callback share them). */
function commonFields(operation: Operation) {
  const details = cryptoDetails(operation);
  return {
    status: operation.status,
    amount: centavosToReais(operation.amountCents),
    fee: centavosToReais(operation.feeCents),
    usdt_amount: details.usdtAmount,
    usdt_rate: details.usdtRate,
    wallet: details.wallet,
    network: details.network,
  };
}

export function cryptoCreateBody(operation: Operation, message: string) {
  return {
    message,
    transactionId: operation.id,
    external_id: operation.externalId ?? operation.id,
    ...commonFields(operation),
  };
}

export function cryptoStatusBody(operation: Operation) {
  return {
    transactionId: operation.id,
    external_id: operation.externalId ?? operation.id,
    ...commonFields(operation),
    total: centavosToReais(operation.amountCents + operation.feeCents),
    txHash: cryptoDetails(operation).txHash ?? null,
    ...(operation.failureReason !== null ? { reason: operation.failureReason } : {}),
    createdAt: iso(operation.createdAt),
    updatedAt: iso(operation.updatedAt),
  };
}

/** Creates the withdrawal and its debit, or returns the existing one for a replay of the same request. */
export function openCryptoWithdrawal(
  ctx: SandboxContext,
  caller: SandboxUser,
  input: CryptoWithdrawalInput,
): { operation: Operation; replayed: boolean } {
  const amountCents = reaisToCentavos(input.amount);
  const fingerprint = fingerprintOf([
    CRYPTO_PRODUCT,
    amountCents,
    input.wallet,
    input.network,
    input.clientCallbackUrl,
  ]);
  return ctx.db.transaction(() => {
    const existing = replayedOperation(ctx, {
      userId: caller.id,
      externalId: input.external_id,
      product: CRYPTO_PRODUCT,
      fingerprint,
    });
    if (existing) return { operation: existing, replayed: true };
    const fees = readCryptoFees(ctx);
    const min = reaisToCentavos(fees.min_withdrawal);
    const max = reaisToCentavos(fees.max_withdrawal);
    if (amountCents < min || amountCents > max) {
      const range = `${formatCentavos(min)} to ${formatCentavos(max)}`;
      throw providerError(
        'CRYPTO_AMOUNT_OUT_OF_RANGE',
        `amount must lie within min_withdrawal..max_withdrawal (${range})`,
        [{ path: 'amount', message: `must be from ${range}` }],
      );
    }
    const feeCents = cryptoFeeCents(amountCents, fees);
    const details: CryptoDetails = {
      wallet: input.wallet,
      network: input.network,
      usdtAmount: usdtAmountForReais(input.amount, fees.usdt_rate),
      usdtRate: fees.usdt_rate,
    };
    const operation = ctx.operations.insert({
      id: newOperationId('cw'),
      userId: caller.id,
      product: CRYPTO_PRODUCT,
      externalId: input.external_id,
      status: 'PROCESSING' satisfies CryptoWithdrawalStatus,
      amountCents,
      feeCents,
      fingerprint,
      callbackUrl: input.clientCallbackUrl,
      details: { ...details },
    });
    postOutgoingDebit(ctx.ledger, CRYPTO_PRODUCT, CRYPTO_ACCOUNTS, operation);
    const outcome = outcomeForAmount(amountCents);
    if (outcome.status !== 'NEVER') {
      const payload =
        outcome.status === 'FAILED' ? { status: 'FAILED', reason: CRYPTO_RULE_FAILED_REASON } : { status: 'COMPLETED' };
      ctx.scheduler.schedule(CRYPTO_SETTLE_JOB, operation.id, ctx.now() + ctx.config.SANDBOX_SETTLE_MS, payload);
    }
    return { operation, replayed: false };
  })();
}

/** A transaction hash in the network's own format: Tron without prefix, EVM chains with 0x. */
function txHashFor(network: CryptoNetwork): string {
  const hex = randomBytes(32).toString('hex');
  return network === 'TRC20' ? hex : `0x${hex}`;
}

/** Applies the final outcome; a no-op (false) when no longer PROCESSING. Call inside a transaction. */
export function settleCryptoWithdrawal(ctx: SandboxContext, operation: Operation, outcome: ForcedOutcome): boolean {
  const details = cryptoDetails(operation);
  const reason = outcome.status === 'FAILED' ? (outcome.reason ?? 'Transfer rejected on chain') : null;
  const settledDetails: CryptoDetails =
    outcome.status === 'COMPLETED' ? { ...details, txHash: txHashFor(details.network) } : details;
  if (
    !ctx.operations.transition(operation.id, 'PROCESSING', outcome.status, {
      failureReason: reason,
      details: { ...settledDetails },
    })
  )
    return false;
  ctx.scheduler.cancelFor(operation.id);
  postOutgoingOutcome(ctx.ledger, CRYPTO_PRODUCT, CRYPTO_ACCOUNTS, operation, outcome.status);
  const settled = rereadMoved(ctx, operation.id, 'sandbox.crypto_withdrawal_settled', {
    externalId: operation.externalId,
  });
  sendOperationCallback(ctx, settled, 'CryptoWithdrawal', cryptoWithdrawalCallbackSchema, {
    transaction_id: settled.id,
    external_id: settled.externalId ?? settled.id,
    ...commonFields(settled),
    total: centavosToReais(settled.amountCents + settled.feeCents),
    ...(settledDetails.txHash !== undefined ? { txHash: settledDetails.txHash } : {}),
    type: 'CryptoWithdrawal' as const,
    ...(reason !== null ? { reason } : {}),
    updated_at: iso(settled.updatedAt),
  });
  return true;
}
