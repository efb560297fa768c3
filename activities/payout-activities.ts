/**
 * The payout's only contact with the provider. Both activities are idempotent: `submitWithdrawal`
 * reconciles by `external_id` before posting on any attempt after the first (the previous attempt may
 * have reached the provider before it timed out), and the provider de-duplicates by `external_id` too.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { centavosToReais, reaisToCentavos } from '../src/money/centavos';
import { ConflictError, InvalidRequestError, NotFoundError } from '../src/payment-api/errors';
import type { PayoutInput } from '../workflows/payout/messages';

/** The slice of the payment API a payout needs (implemented by PaymentApiClient). */
export interface WithdrawalPort {
  withdraw(request: {
    amount: number;
    external_id: string;
    pix_key: string;
    key_type: 'CPF' | 'EMAIL' | 'PHONE';
    clientCallbackUrl: string;
    description?: string;
  }): Promise<{ transactionId: string; withdrawal: { status: string; fee: number; total: number } }>;
  checkTransaction(transactionId: string): Promise<{ transaction: { transactionId: string; transactionState: string; fee?: number } }>;
}

export type SubmitOutcome =
  | { kind: 'accepted'; transactionId: string; providerStatus: string; feeCents: number; totalCents: number; reconciled: boolean }
  | { kind: 'rejected'; reason: string };

export type CheckOutcome =
  | { kind: 'not-found' }
  | { kind: 'found'; transactionId: string; state: 'PENDING' | 'COMPLETED' | 'FAILED'; providerState: string; feeCents?: number };

/** transactionState → our view; anything unknown is "not final yet, look again". */
export function classifyTransactionState(state: string): 'PENDING' | 'COMPLETED' | 'FAILED' {
  if (state === 'COMPLETO') return 'COMPLETED';
  if (state === 'FALHA') return 'FAILED';
  return 'PENDING';
}

function optionalCentavos(reais: number | undefined): number | undefined {
  if (reais === undefined) return undefined;
  try {
    return reaisToCentavos(reais);
  } catch {
    return undefined;
  }
}

export interface PayoutActivityDependencies {
  api: WithdrawalPort;
  /** Where the provider posts withdrawal callbacks: `<engine public URL>/callbacks/withdrawals`. */
  withdrawalCallbackUrl: string;
}

export function createPayoutActivities({ api, withdrawalCallbackUrl }: PayoutActivityDependencies) {
  async function checkWithdrawal(externalId: string): Promise<CheckOutcome> {
    try {
      const { transaction } = await api.checkTransaction(externalId);
      const feeCents = optionalCentavos(transaction.fee);
      return {
        kind: 'found',
        transactionId: transaction.transactionId,
        state: classifyTransactionState(transaction.transactionState),
        providerState: transaction.transactionState,
        ...(feeCents === undefined ? {} : { feeCents }),
      };
    } catch (error) {
      if (error instanceof NotFoundError) return { kind: 'not-found' };
      throw error;
    }
  }

  async function submitWithdrawal(input: PayoutInput): Promise<SubmitOutcome> {
    if (Context.current().info.attempt > 1) {
      const existing = await checkWithdrawal(input.externalId);
      if (existing.kind === 'found') {
        const feeCents = existing.feeCents ?? 0;
        return {
          kind: 'accepted',
          transactionId: existing.transactionId,
          providerStatus: existing.providerState,
          feeCents,
          totalCents: input.amountCents + feeCents,
          reconciled: true,
        };
      }
    }
    try {
      const response = await api.withdraw({
        amount: centavosToReais(input.amountCents),
        external_id: input.externalId,
        pix_key: input.pixKey,
        key_type: input.keyType,
        clientCallbackUrl: withdrawalCallbackUrl,
        ...(input.description ? { description: input.description } : {}),
      });
      return {
        kind: 'accepted',
        transactionId: response.transactionId,
        providerStatus: response.withdrawal.status,
        feeCents: reaisToCentavos(response.withdrawal.fee),
        totalCents: reaisToCentavos(response.withdrawal.total),
        reconciled: false,
      };
    } catch (error) {
      if (error instanceof InvalidRequestError) return { kind: 'rejected', reason: error.message };
      if (error instanceof ConflictError) throw ApplicationFailure.nonRetryable(error.message, 'Conflict');
      // Everything else (5xx, timeouts, lost connections, auth) is retried; the next attempt reconciles first.
      throw error;
    }
  }

  return { submitWithdrawal, checkWithdrawal };
}

export type PayoutActivities = ReturnType<typeof createPayoutActivities>;
